// What "MCP Host: Connect an Agent…" shows for each agent: the exact command or configuration that points it at the
// gateway (its URL and the bearer token), in that agent's own syntax, to copy. Checked against each agent's
// documentation: Claude Code's `claude mcp add --transport http … --header`, Copilot CLI's ~/.copilot/mcp-config.json
// (`mcpServers`, `type: "http"`, `headers`), Codex's `codex mcp add --url … --bearer-token-env-var` (Codex refuses a
// token written in its config.toml) and Cursor's mcp.json (`mcpServers`, `url`, `headers`).

/** The variables set in VS Code's integrated terminals while the gateway runs. */
export const GATEWAY_URL_VARIABLE = 'MCP_HOST_GATEWAY_URL';
export const GATEWAY_TOKEN_VARIABLE = 'MCP_HOST_GATEWAY_TOKEN';

/** The name the gateway gets in each agent's configuration. */
export const GATEWAY_SERVER_NAME = 'mcp-host';

export type AgentId = 'claude-code' | 'copilot-cli' | 'codex' | 'cursor';

export interface AgentSetup {
  id: AgentId;
  label: string;
  /** Where it goes, in words. */
  where: string;
  /** The text to copy. */
  text: string;
  /** The document's language, for highlighting. */
  language: 'shellscript' | 'json';
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The four agents' setups for a gateway at `url` with `token`. */
export function agentSetups(url: string, token: string): AgentSetup[] {
  const authorization = `Bearer ${token}`;
  return [
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in a terminal (add --scope user to have it in every project).',
      text: `claude mcp add --transport http ${GATEWAY_SERVER_NAME} ${url} --header "Authorization: ${authorization}"`,
      language: 'shellscript',
    },
    {
      id: 'copilot-cli',
      label: 'Copilot CLI',
      where: 'Add to ~/.copilot/mcp-config.json (merge into its "mcpServers").',
      text: json({ mcpServers: { [GATEWAY_SERVER_NAME]: { type: 'http', url, headers: { Authorization: authorization }, tools: ['*'] } } }),
      language: 'json',
    },
    {
      id: 'codex',
      label: 'Codex',
      where: `Run in a terminal. Codex reads the token from ${GATEWAY_TOKEN_VARIABLE}, which VS Code's integrated terminals have while the gateway runs (elsewhere, export it first).`,
      text: `codex mcp add ${GATEWAY_SERVER_NAME} --url ${url} --bearer-token-env-var ${GATEWAY_TOKEN_VARIABLE}`,
      language: 'shellscript',
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: 'Add to ~/.cursor/mcp.json, or .cursor/mcp.json in a project (merge into its "mcpServers"); keep that file out of source control.',
      text: json({ mcpServers: { [GATEWAY_SERVER_NAME]: { url, headers: { Authorization: authorization } } } }),
      language: 'json',
    },
  ];
}

/** The document "Connect an Agent…" opens: where it goes, the text, and what the user should know. */
export function agentSetupDocument(setup: AgentSetup): string {
  const comment = setup.language === 'json' ? undefined : '#';
  const notes = [
    `${setup.label}: ${setup.where}`,
    'The token gives the tools of your running MCP servers to whoever holds it (each call still asks you): do not share it or commit it.',
    'The address holds while the gateway keeps its port; if it changes (another program took the port), connect again.',
  ];
  // JSON has no comments: the notes go in the window's message instead (see the caller).
  return comment ? `${notes.map((n) => `${comment} ${n}`).join('\n')}\n${setup.text}\n` : `${setup.text}\n`;
}
