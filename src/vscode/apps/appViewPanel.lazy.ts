// One MCP App view in a webview panel. The webview holds only our relay script and a frame sandboxed to scripts
// (no same origin, no popups, forms or navigation of anything above it) whose document is the view's HTML with its
// declared policy in front; the webview's own policy bounds it again. The ext-apps AppBridge answers the view from here
// (appViewHost): every call goes through the session of the view's server and our consent. The view is torn down with
// a "server stopped" notice when its server stops or restarts, and a view that cannot be read shows why instead.
import vscode = require('vscode');
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { toolUi } from '../../core/features/tools/toolUi';
import { AppResourceCache } from '../../core/features/apps/appResources.lazy';
import { allowAttribute, appContentSecurityPolicy, hostContentSecurityPolicy, withContentSecurityPolicy, type AppCsp } from '../../core/features/apps/appSandbox.lazy';
import { checkedStyles, type AppTheme } from '../../core/features/apps/appStyles';
import { MAX_VIEW_HEIGHT, startAppViewHost, type AppViewHost } from '../../core/features/apps/appViewHost.lazy';
import type { FromWebview, ToWebview } from '../../core/features/apps/viewMessages';
import type { ServerSession } from '../../core/host/serverSession';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { AppView, AppViewInfo, AppViewsDeps, OpenAppView, ToolCallRecord } from './appViewTypes';
import { toolLabel } from '../../core/presentation/serverPresentation';

/** One cache for every view: each server session's views are read once. */
const resources = new AppResourceCache();

/** The JSON-RPC channel between the bridge and the view, through the webview's relay. */
class WebviewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;

  constructor(private readonly post: (m: ToWebview) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.closed) this.post({ type: 'rpc', message });
  }

  /** A message the relay took from the view's frame: checked here against the SDK's JSON-RPC schema. */
  receive(message: unknown): void {
    if (this.closed) return;
    let checked: JSONRPCMessage;
    try {
      checked = parseJSONRPCMessage(message);
    } catch {
      this.onerror?.(new Error('The view sent something that is not JSON-RPC 2.0.'));
      return;
    }
    this.onmessage?.(checked);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/** The OpenAppView the composition root hands out. */
export const openAppView: OpenAppView = (call, deps, column) => new AppViewPanel(call, deps, column);

export class AppViewPanel implements AppView {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  private session: ServerSession | undefined;
  private host: AppViewHost | undefined;
  private transport: WebviewTransport | undefined;
  private state: AppViewInfo['state'] = 'loading';
  private message: string | undefined;
  private height: number | undefined;
  private theme: { theme: AppTheme; styles: McpUiHostContext['styles']; width: number } | undefined;
  private ready!: () => void;
  private readonly webviewReady = new Promise<void>((resolve) => (this.ready = resolve));
  disposed = false;

  constructor(
    private readonly call: ToolCallRecord,
    private readonly deps: AppViewsDeps,
    /** Where it opens: beside the active editor unless given (a replaced view's column). */
    viewColumn: vscode.ViewColumn = vscode.ViewColumn.Beside,
  ) {
    const title = labelText(`${toolLabel(call.tool)} (${call.serverName})`);
    this.panel = vscode.window.createWebviewPanel('mcpHost.appView', title, { viewColumn, preserveFocus: true }, {
      enableScripts: true,
      // A view keeps its state while its tab is in the background.
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview')],
    });
    this.panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'mcp.svg');
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((m: FromWebview) => this.received(m)),
      deps.sessions.onDidChangeServers(() => this.checkServer()),
    );
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  /** The editor column the view is in (undefined once closed). */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this.disposed ? undefined : this.panel.viewColumn;
  }

  info(): AppViewInfo {
    return { serverId: this.call.serverId, toolName: this.call.tool.name, state: this.state, message: this.message, height: this.height, column: this.viewColumn };
  }

  /** Reads the view (once per session) and shows it, or shows why it cannot be shown. */
  async start(): Promise<void> {
    const { call } = this;
    const uri = toolUi(call.tool).resourceUri;
    this.session = this.deps.runningSession(call.serverId);
    if (!uri || !this.session) {
      this.shell({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
      this.close('error', `The server "${call.serverName}" is not running.`, 'Start it and run the tool again to see its view.');
      return;
    }
    const resource = await resources.load(this.session, uri);
    if (this.disposed) return;
    if (!resource.ok) {
      this.session.log.warn(`The view ${uri} of tool "${call.tool.name}" cannot be shown: ${resource.message}`);
      this.shell({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
      this.close('error', `This view cannot be shown: ${resource.message}.`, `The tool "${call.tool.name}" names ${uri} as its view. Its result is in the tool's output.`);
      return;
    }
    const { sandbox } = resource;
    for (const r of sandbox.refused) this.session.log.warn(`View ${uri}: ignored ${r}`);
    const policy = appContentSecurityPolicy(sandbox.csp);
    this.session.log.info(`Showing view ${uri} of tool "${call.tool.name}" with policy: ${policy}`);
    this.shell(sandbox.csp);
    await this.webviewReady;
    if (this.disposed || this.state !== 'loading') return;

    const transport = (this.transport = new WebviewTransport((m) => this.post(m)));
    try {
      // The app bridge brings ext-apps, loaded when a view is first shown (this panel loads on demand too).
      this.host = await startAppViewHost({
        transport,
        serverId: call.serverId,
        serverName: call.serverName,
        tools: () => this.deps.sessions.servers().find((s) => s.id === call.serverId)?.features.tools ?? [],
        call: { tool: call.tool, arguments: call.arguments, result: call.result },
        sandbox,
        caller: this.deps.caller,
        hostInfo: { name: 'mcp-host-vscode', version: this.deps.hostVersion },
        hostContext: this.hostContext(),
        confirmOpenLink: (q) =>
          this.deps.dialogs.confirmOpenUrl({ serverName: q.serverName, url: q.url, domain: q.domain, message: `The view of tool "${q.toolName}" asks to open this page.` }),
        openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
        confirmMessage: (q) => this.deps.dialogs.confirmViewMessage(q),
        putInChat: async (text) => {
          await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
        },
        resize: (height) => {
          this.height = height;
          this.post({ type: 'height', height });
        },
        log: this.session.log,
      });
    } catch (e) {
      this.close('error', 'This view could not be started.', String((e as Error)?.message ?? e));
      return;
    }
    if (this.disposed) return void this.host.teardown();
    this.state = 'shown';
    this.post({
      type: 'load',
      html: withContentSecurityPolicy(resource.html, policy),
      allow: allowAttribute(sandbox.permissions),
      title: plainText(`${toolLabel(call.tool)} · ${call.serverName}`),
      detail: 'A view from an MCP server, in a sandbox: what it asks goes through MCP Host.',
    });
    this.checkServer();
  }

  private hostContext(): McpUiHostContext {
    return {
      toolInfo: { tool: this.call.tool },
      theme: this.theme?.theme,
      styles: this.theme?.styles,
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      containerDimensions: { width: this.theme?.width ?? 600, maxHeight: MAX_VIEW_HEIGHT },
      locale: vscode.env.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: `mcp-host-vscode/${this.deps.hostVersion} (${vscode.env.appName})`,
      platform: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
    };
  }

  /** The webview's document: our relay script, a frame for the view, and a place for notices. No server text. */
  private shell(csp: AppCsp): void {
    const webview = this.panel.webview;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview', 'appFrame.js'));
    webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${hostContentSecurityPolicy(csp, webview.cspSource).replace(/"/g, '&quot;')}">
<style>
  body { margin: 0; padding: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); }
  #status { display: flex; gap: 0.5em; align-items: baseline; padding: 4px 8px; font-size: 0.85em; color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border, transparent); }
  #status.closed { display: block; padding: 16px; font-size: 1em; border: none; }
  #status.closed #title { display: block; font-weight: 600; color: var(--vscode-foreground); margin-bottom: 0.5em; }
  #app { display: block; width: 100%; height: 320px; border: none; background: transparent; }
</style></head>
<body>
<div id="status" role="status"><span id="title">Loading the view…</span><span id="detail"></span></div>
<iframe id="app" sandbox="allow-scripts" title="MCP App view"></iframe>
<script src="${script.toString()}"></script>
</body></html>`;
  }

  private post(message: ToWebview): void {
    if (!this.disposed) void this.panel.webview.postMessage(message);
  }

  private received(m: FromWebview): void {
    switch (m?.type) {
      case 'ready':
      case 'context': {
        this.theme = { theme: m.theme === 'light' ? 'light' : 'dark', styles: { variables: checkedStyles(m.styles) as NonNullable<McpUiHostContext['styles']>['variables'] }, width: typeof m.width === 'number' && m.width > 0 ? Math.round(m.width) : 600 };
        if (m.type === 'ready') this.ready();
        else this.host?.setHostContext(this.hostContext());
        return;
      }
      case 'rpc':
        this.transport?.receive(m.message);
        return;
    }
  }

  /** Torn down when the server is no longer the running session the view was opened with. */
  private checkServer(): void {
    if (this.disposed || this.state !== 'shown' || !this.session) return;
    if (this.deps.runningSession(this.call.serverId) === this.session) return;
    // The view is told first (it may answer within a second), then its frame goes.
    const tornDown = this.teardown();
    this.close(
      'closed',
      `Server stopped: the server "${this.call.serverName}" stopped or restarted, so this view was closed.`,
      'Run the tool again to see a new view.',
      tornDown,
    );
  }

  private async teardown(): Promise<void> {
    const host = this.host;
    this.host = undefined;
    await host?.teardown();
    await this.transport?.close();
  }

  /** Shows `title` in the view's place (once the webview listens, and after `after`), for good. */
  private close(state: 'error' | 'closed', title: string, detail: string, after: Promise<unknown> = Promise.resolve()): void {
    this.state = state;
    this.message = title;
    void Promise.all([this.webviewReady, after]).then(() => this.post({ type: 'closed', title: plainText(title), detail: plainText(detail) }));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.teardown();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}
