// What MCP: Open Workspace Configuration writes into a folder's new .vscode/mcp.json: examples, commented out.
export const CONFIG_TEMPLATE = `{
  // MCP servers for this folder: each one runs with your permissions, once you trust it.
  // Same format as VS Code's own MCP support; hover a property for help. Inside "servers", type a quote
  // (or press Ctrl+Space) for snippets of well-known servers, or run "MCP Host: Add Server from Registry…".
  // The "Add Server…" button VS Code shows in this file is its own MCP support's, which would start these servers
  // a second time: "MCP Host: Choose Between MCP Host and VS Code's Built-in MCP…" decides which one runs them.
  "servers": {
    // "everything": {
    //   "type": "stdio",
    //   "command": "npx",
    //   "args": ["-y", "@modelcontextprotocol/server-everything"],
    //   "env": { "API_KEY": "\${input:api-key}" }
    // },
    // "remote": { "type": "http", "url": "https://example.com/mcp" }
  },
  "inputs": [
    // { "type": "promptString", "id": "api-key", "description": "API key", "password": true }
  ]
}
`;
