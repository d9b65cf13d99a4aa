// VS Code's own MCP support reads the same .vscode/mcp.json and would start every server of it a second time. Once
// per workspace MCP Host says which servers both would run and offers the choice: "Let MCP Host Run Them" turns the
// built-in support off for this workspace only (`chat.mcp.access: "none"` in the workspace settings: VS Code has no
// narrower switch for the servers of one file), "Keep Both" is remembered. Choose Between… also offers a third way:
// VS Code's support on but starting no server itself, its agent using MCP Host's through the gateway
// (./coexistencePick.lazy.ts). The Servers view shows the choice in its first row, and a click on it changes it.
import vscode = require('vscode');
import type { ServerInfo } from '../../core/host/serverInfo';
import { COEXISTENCE_CHOICE_KEY, coexistenceNotice, type CoexistenceChoice, type CoexistenceNotice } from '../../core/presentation/coexistenceNotice';
import { CommandIds } from '../../core/common/commandIds';
import { cachedSection } from '../cachedSection';
import { CoalescedRefresh } from '../coalescedRefresh';

const NOTICE_KEY = 'mcpHost.builtinMcp.noticeShown';

/** What the choice reads and changes: the Coexistence below. */
export interface CoexistenceChoices {
  readonly choice: CoexistenceChoice | undefined;
  /** The workspace's state: the choice and what it changed. */
  readonly state: vscode.Memento;
  builtinOn(): boolean;
  turnedOffHere(): boolean;
  shared(): string[];
  letMcpHostRun(): Promise<void>;
  remember(choice: CoexistenceChoice): Promise<void>;
  turnBuiltinBackOn(): Promise<void>;
  turnBuiltinOnHere(): Promise<void>;
}

/** The notification and the pick (./coexistencePick.lazy.ts). */
export interface CoexistencePicks {
  offerCoexistence(c: CoexistenceChoices, shared: string[], shown: (message: string) => void): Promise<void>;
  pickCoexistence(c: CoexistenceChoices): Promise<void>;
}

interface ServerSource {
  servers(): ServerInfo[];
  onDidChangeServers(listener: () => void): vscode.Disposable;
}

export class Coexistence implements CoexistenceChoices, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Extension tests: each notification's message. */
  readonly shownNotices: string[] = [];
  /**
   * VS Code's `chat.mcp` settings, read once until one of them changes. The Servers view asks for its notice at each
   * refresh, and the first read of the configuration after any change (an edit of mcp.json is one) costs the extension
   * host several milliseconds while it merges the configuration anew. Made before the listener below, so it is
   * emptied before that listener tells the view.
   */
  private readonly chatMcp = cachedSection('chat.mcp');

  constructor(
    readonly state: vscode.Memento,
    private readonly source: ServerSource,
    private readonly picks: CoexistencePicks,
  ) {
    this.subscriptions = [
      this.chatMcp,
      vscode.commands.registerCommand(CommandIds.chooseBuiltinMcp, () => this.choose()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('chat.mcp')) this._onDidChange.fire();
      }),
      source.onDidChangeServers(() => {
        this._onDidChange.fire();
        this.counting.schedule();
      }),
      this.counting,
    ];
  }

  /** The servers VS Code's support reads too: the workspace's, and the user's but those of MCP Host's own mcp.json. */
  shared(): string[] {
    return [...new Set(this.source.servers().filter((s) => s.scope.readByVsCode).map((s) => s.name))];
  }

  get choice(): CoexistenceChoice | undefined {
    return this.state.get<CoexistenceChoice>(COEXISTENCE_CHOICE_KEY);
  }

  /** True when this VS Code has built-in MCP support and nothing turns it off. */
  builtinOn(): boolean {
    if (this.chatMcp.get<boolean>('enabled') === false) return false;
    // An older VS Code without built-in MCP support does not know the setting.
    if (this.chatMcp.inspect<string>('access')?.defaultValue === undefined) return false;
    return this.chatMcp.get<string>('access') !== 'none';
  }

  turnedOffHere(): boolean {
    return this.chatMcp.inspect<string>('access')?.workspaceValue === 'none' && this.choice === 'mcpHost';
  }

  /** Changes `chat.mcp.access` in the workspace settings; read again at the next question. */
  private async updateAccess(value: string | undefined): Promise<void> {
    await vscode.workspace.getConfiguration('chat').update('mcp.access', value, vscode.ConfigurationTarget.Workspace);
    this.chatMcp.forget();
  }

  notice(): CoexistenceNotice | undefined {
    return coexistenceNotice(this.builtinOn(), this.turnedOffHere(), this.choice, this.shared());
  }

  /** How many servers both would run when last looked at; undefined until the configuration's first load was offered. */
  private sharedSeen: number | undefined;
  /**
   * A file both read got servers after the start (a new mcp.json): the notification's first time, if not yet shown.
   * Counted once a burst of changes has settled, as the views are drawn: 50 servers starting fire hundreds of changes,
   * and each count lists every server.
   */
  private readonly counting = new CoalescedRefresh(() => {
    const n = this.shared().length;
    if (this.sharedSeen !== undefined) void (n > this.sharedSeen ? this.offerOnce() : (this.sharedSeen = n));
  });

  /** The notification, once per workspace, while both would run the same servers and no choice was made. */
  async offerOnce(): Promise<void> {
    const shared = this.shared();
    this.sharedSeen = shared.length;
    if (!shared.length || !this.builtinOn() || this.choice || this.state.get(NOTICE_KEY)) return;
    await this.state.update(NOTICE_KEY, true);
    await this.picks.offerCoexistence(this, shared, (message) => this.shownNotices.push(message));
  }

  /** The Servers view's row and the command: the choice, offered again whatever it was. */
  choose(): Promise<void> {
    return this.picks.pickCoexistence(this);
  }

  async letMcpHostRun(): Promise<void> {
    await this.updateAccess('none');
    await this.state.update(COEXISTENCE_CHOICE_KEY, 'mcpHost');
    this._onDidChange.fire();
  }

  async remember(choice: CoexistenceChoice): Promise<void> {
    await this.state.update(COEXISTENCE_CHOICE_KEY, choice);
    this._onDidChange.fire();
  }

  /** VS Code's MCP support was off by a setting of the user's (or a policy): on in this workspace. */
  async turnBuiltinOnHere(): Promise<void> {
    await this.updateAccess('all');
    await this.state.update(COEXISTENCE_CHOICE_KEY, 'both');
    this._onDidChange.fire();
  }

  async turnBuiltinBackOn(): Promise<void> {
    await this.updateAccess(undefined);
    await this.state.update(COEXISTENCE_CHOICE_KEY, undefined);
    this._onDidChange.fire();
  }

  /** Extension tests: forget the choice and that the notification was shown. */
  async reset(): Promise<void> {
    if (this.turnedOffHere()) await this.updateAccess(undefined);
    await this.state.update(COEXISTENCE_CHOICE_KEY, undefined);
    await this.state.update(NOTICE_KEY, undefined);
    this._onDidChange.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this._onDidChange.dispose();
  }
}
