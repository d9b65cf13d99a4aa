// The gateway offered to VS Code's own MCP support as one MCP server definition ("MCP Host"), so that Copilot's agent
// sees each tool of MCP Host's servers as a tool of its own (VS Code's tool picker, its confirmations) while each server
// still runs once, in MCP Host. Offered only while the gateway runs and VS Code's MCP support is on.
//
// VS Code keeps the definitions a provider lists in its storage (to show their tools before the extension activates),
// so the listed one holds no secret: a fixed placeholder address and no header. The gateway's real address and a token
// of VS Code's own (made for this window, never stored) are given only in `resolveMcpServerDefinition`, which VS Code
// calls each time it starts the server and does not keep. Calls made with that token are "VS Code's agent" in the
// consent. `@types/vscode` is older than this API (1.101): the few members used are declared here and checked at run time.
import vscode = require('vscode');
import { newGatewaySecret } from '../../core/features/gateway/gatewayRequestCheck';

/** The name VS Code shows for the server (its MCP views, the tool picker's group). */
export const DEFINITION_LABEL = 'MCP Host';

/** A definition's address before it is resolved: no secret, never reached (the gateway listens on another port). */
const PLACEHOLDER = 'http://127.0.0.1:1/mcp-host-gateway';

/** What is used of VS Code's McpHttpServerDefinition (1.101). */
interface HttpDefinition {
  readonly label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
}
type HttpDefinitionClass = new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => HttpDefinition;

const definitionClass = (): HttpDefinitionClass | undefined => {
  const found = (vscode as unknown as { McpHttpServerDefinition?: unknown }).McpHttpServerDefinition;
  return typeof found === 'function' ? (found as HttpDefinitionClass) : undefined;
};

/**
 * True when this VS Code has MCP support and nothing turns it off (chat.mcp.enabled, chat.mcp.access, a policy). A
 * workspace's own settings (a cloned repository's .vscode/settings.json) may turn it off, but not on against the user's
 * "none": that counts only when the user chose so in this workspace (`choiceMadeHere`: Choose Between…, kept in the
 * workspace's state, which no file can write).
 */
export function builtinMcpOn(choiceMadeHere: boolean): boolean {
  const chatMcp = vscode.workspace.getConfiguration('chat.mcp');
  if (chatMcp.get<boolean>('enabled') === false) return false;
  const access = chatMcp.inspect<string>('access');
  if (access?.defaultValue === undefined) return false;
  if ((access.globalValue ?? access.defaultValue) === 'none' && !choiceMadeHere) return false;
  return chatMcp.get<string>('access') !== 'none';
}

/** The id VS Code gives the server: the extension's id in lower case, then its label. */
export const definitionServerId = (extensionId: string): string => `${extensionId.toLowerCase()}/${DEFINITION_LABEL}`;

export class GatewayDefinition {
  private token = newGatewaySecret();

  /** VS Code's own token: in memory only, for one run of the gateway (see renewToken). */
  get editorToken(): string {
    return this.token;
  }

  /**
   * A new token for VS Code, at each start of the gateway: one VS Code had from an earlier run (before a stop, a
   * restart or New Gateway Token) is refused, as the gateway token is. VS Code asks for the new one when it starts
   * the server again (resolve).
   */
  renewToken(): void {
    this.token = newGatewaySecret();
  }

  constructor(
    private readonly gatewayUrl: () => string | undefined,
    private readonly extensionId: string,
    /** Whether the user made the coexistence choice in this workspace (see builtinMcpOn). */
    private readonly choiceMadeHere: () => boolean,
  ) {}

  definitions(): HttpDefinition[] {
    const Definition = definitionClass();
    if (!this.gatewayUrl() || !Definition || !builtinMcpOn(this.choiceMadeHere())) return [];
    return [new Definition(DEFINITION_LABEL, vscode.Uri.parse(PLACEHOLDER))];
  }

  /** VS Code starts the server: where the gateway is now, and VS Code's token. Undefined (not started) when it is off. */
  resolve(definition: unknown): HttpDefinition | undefined {
    const url = this.gatewayUrl();
    const Definition = definitionClass();
    if (!url || !Definition || (definition as HttpDefinition | undefined)?.label !== DEFINITION_LABEL) return undefined;
    // A new object: the listed one (which VS Code keeps) stays without the secret. `Authorization` spelt so: VS Code
    // 1.139 masks that very key (not `authorization`) when its MCP log is at Trace.
    return new Definition(DEFINITION_LABEL, vscode.Uri.parse(url), { Authorization: `Bearer ${this.editorToken}` });
  }

  /**
   * Has VS Code start the server now, so that its agent sees the tools at once (not only at its next chat request,
   * and also where `chat.mcp.autostart` is "never", as the coexistence choice sets it). Quietly nothing in a VS Code
   * without this command.
   */
  async startInVsCode(): Promise<void> {
    if (!this.definitions().length) return;
    const id = definitionServerId(this.extensionId);
    // Stopped first: VS Code may still hold the gateway's earlier run (its address and token, refused now) when the
    // gateway stopped and started again within the moment it gathers changes in; only a new start resolves the new
    // ones. Not VS Code's restart command: it also opens the server's output, which takes the user's panel.
    await Promise.resolve(vscode.commands.executeCommand('workbench.mcp.stopServer', id)).catch(() => undefined);
    await Promise.resolve(vscode.commands.executeCommand('workbench.mcp.startServer', id)).catch(() => undefined);
  }
}
