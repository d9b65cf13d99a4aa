// MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): what this host declares to servers. What a tool's
// `_meta.ui` says (its view, who may call it) is read by ../tools/toolUi.ts.
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The one kind of view this host renders: an HTML document in a sandboxed frame. */
export const APP_HTML_MIME_TYPE = 'text/html;profile=mcp-app';
