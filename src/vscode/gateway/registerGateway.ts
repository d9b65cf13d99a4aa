// The gateway's activation part, kept tiny: its commands, the setting that turns it on, and the Servers view's rows of
// its clients (made by the lazy part). Everything else (the HTTP server, the SDK, the status bar item, Connect an
// Agent…, its errors' messages) loads on first use (./gatewayController.lazy.ts).
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import { Emitter } from '../../core/common/events';
import type { RowNotice } from '../../core/presentation/coexistenceNotice';
import type { SessionPort } from '../../core/host/serverSession';
import type { GuardedCaller } from '../../core/features/gateway/gatewayRelay';

/**
 * What the gateway needs of the extension: its secret storage (the token and path), global state (the last port, so
 * agents' configurations keep working), the integrated terminals' variables and its version.
 */
export type GatewayContext = Pick<vscode.ExtensionContext, 'secrets' | 'globalState' | 'workspaceState' | 'environmentVariableCollection' | 'extension' | 'subscriptions'>;

/**
 * What the gateway does once used (./gatewayController.lazy.ts): made with the servers and the one guarded call path;
 * it adds itself to the extension's subscriptions, so it stops with the window.
 */
export interface GatewayController extends vscode.Disposable {
  /** Starts it, or says why it could not (never rejects). */
  start(): Promise<void>;
  stop(): Promise<void>;
  connectAgent(): Promise<void>;
  /** Ends one client (its row in the Servers view, or its key). */
  disconnect(client: unknown): Promise<void>;
  /** A new token (and path): the old one is refused at once, every client is ended. */
  newToken(): Promise<void>;
  /** Extension tests: where it listens, its token and its clients' names, while it runs. */
  readonly running?: GatewayState;
  /** The server definition offered to VS Code's MCP support: one while the gateway runs and that support is on. */
  definitions(): unknown[];
  /** The definition VS Code starts, with the gateway's address and the editor's token; undefined when it is off. */
  resolveDefinition(definition: unknown): unknown;
}

export interface GatewayState {
  url: string;
  token: string;
  /** VS Code's token of this run (see GatewayDefinition.renewToken). */
  editorToken?: string;
  clients(): string[];
}

export type MakeGatewayController = (sessions: SessionPort, caller: GuardedCaller, context: GatewayContext, rows: GatewayClientRows, definitionsChanged: () => void) => GatewayController;

/** The connected clients' rows at the top of the Servers view, set by the gateway while it runs. */
export class GatewayClientRows {
  private rows: readonly RowNotice[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  notice = () => this.rows;
  show(rows: readonly RowNotice[]): void {
    this.rows = rows;
    this.changed.fire();
  }
  dispose = () => this.changed.dispose();
}

const ENABLED = 'mcpHost.gateway.enabled';

export function registerGateway(controller: (definitionsChanged: () => void) => GatewayController): { disposables: vscode.Disposable[]; running(): GatewayState | undefined } {
  let made: GatewayController | undefined;
  const changed = new vscode.EventEmitter<void>();
  const run = (action: 'start' | 'stop' | 'connectAgent' | 'newToken') => (made ??= controller(() => changed.fire()))[action]();
  // Made only when the setting is on or a command runs: a window where it is off loads nothing.
  const follow = () => (vscode.workspace.getConfiguration().get(ENABLED) ? run('start') : made?.stop());
  void follow();
  const disposables = [
    vscode.commands.registerCommand(CommandIds.startGateway, () => run('start')),
    vscode.commands.registerCommand(CommandIds.stopGateway, () => made?.stop()),
    vscode.commands.registerCommand(CommandIds.connectAgent, () => run('connectAgent')),
    vscode.commands.registerCommand(CommandIds.newGatewayToken, () => run('newToken')),
    vscode.commands.registerCommand(CommandIds.disconnectGatewayClient, (client: unknown) => made?.disconnect(client)),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(ENABLED) && follow()),
    changed,
  ];
  // VS Code's MCP support (1.101 and later) asks the providers declared in package.json at its start: nothing loads
  // until the gateway runs (then ./gatewayDefinition.lazy.ts answers, and follows VS Code's chat.mcp settings).
  const lm = vscode.lm as { registerMcpServerDefinitionProvider?(id: string, provider: object): vscode.Disposable };
  if (lm.registerMcpServerDefinitionProvider) {
    disposables.push(
      lm.registerMcpServerDefinitionProvider('mcpHost.gateway', {
        onDidChangeMcpServerDefinitions: changed.event,
        provideMcpServerDefinitions: () => made?.definitions(),
        resolveMcpServerDefinition: (definition: unknown) => made?.resolveDefinition(definition),
      }),
    );
  }
  return { disposables, running: () => made?.running };
}
