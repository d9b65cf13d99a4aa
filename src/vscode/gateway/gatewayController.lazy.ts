// The gateway in VS Code, loaded when first turned on or used: starts and stops the endpoint (the token and path kept
// in secret storage, the last port remembered), says in the status bar while clients are connected and which, sets
// the address and token in the integrated terminals only while it runs, and shows each agent how to connect.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import { agentSetupDocument, agentSetups, GATEWAY_TOKEN_VARIABLE, GATEWAY_URL_VARIABLE } from '../../core/features/gateway/agentSetup';
import { startGateway, type RunningGateway } from '../../core/features/gateway/gatewayHttp.lazy';
import { GatewayRelay } from '../../core/features/gateway/gatewayRelay';
import { isGatewaySecret, newGatewayPath, newGatewaySecret } from '../../core/features/gateway/gatewayRequestCheck';
import { labelText, plainText } from '../../core/presentation/serverText';
import type { GuardedCaller } from '../../core/features/gateway/gatewayRelay';
import type { SessionPort } from '../../core/host/serverSession';
import type { GatewayClientRows, GatewayContext, GatewayController } from './registerGateway';
import { GatewayDefinition } from './gatewayDefinition.lazy';
import { COEXISTENCE_CHOICE_KEY } from '../../core/presentation/coexistenceNotice';

const SECRET_KEY = 'mcpHost.gateway.credentials';
const PORT_KEY = 'mcpHost.gateway.port';
const HIDDEN_TOKEN = '<gateway token>';

interface Credentials {
  token: string;
  path: string;
}

async function credentials(secrets: GatewayContext['secrets'], renew = false): Promise<Credentials> {
  try {
    const stored = renew ? null : (JSON.parse((await secrets.get(SECRET_KEY)) ?? 'null') as Partial<Credentials> | null);
    if (stored && isGatewaySecret(stored.token) && typeof stored.path === 'string' && /^\/mcp\/[0-9a-f]{32}$/.test(stored.path)) return { token: stored.token, path: stored.path };
  } catch {
    // Not ours: replaced below.
  }
  const made = { token: newGatewaySecret(), path: newGatewayPath() };
  await secrets.store(SECRET_KEY, JSON.stringify(made));
  return made;
}

export function gatewayController(sessions: SessionPort, caller: GuardedCaller, context: GatewayContext, rows: GatewayClientRows, definitionsChanged: () => void): GatewayController {
  const deps = { sessions, caller, secrets: context.secrets, state: context.globalState, environment: context.environmentVariableCollection, version: String(context.extension.packageJSON.version) };
  let gateway: RunningGateway | undefined;
  let starting: Promise<void> | undefined;
  let log: vscode.LogOutputChannel | undefined;
  const item = vscode.window.createStatusBarItem('mcpHost.gateway', vscode.StatusBarAlignment.Right, 99);
  item.name = 'MCP Host Gateway';
  item.command = CommandIds.connectAgent;
  const subscriptions: vscode.Disposable[] = [];
  // The gateway as a server of VS Code's own MCP support (./gatewayDefinition.lazy.ts).
  const definition = new GatewayDefinition(() => gateway?.url, context.extension.id, () => context.workspaceState.get(COEXISTENCE_CHOICE_KEY) !== undefined);
  let startInVsCode: NodeJS.Timeout | undefined;
  const offerToVsCode = () => {
    definitionsChanged();
    // VS Code takes the new list in after a moment (it gathers changes for half a second): then it can start it.
    clearTimeout(startInVsCode);
    startInVsCode = setTimeout(() => void definition.startInVsCode(), 1500);
  };

  const show = () => {
    showRows();
    if (!gateway) return item.hide();
    const names = gateway.clients.list().map((c) => labelText(c.name));
    item.text = names.length ? `$(radio-tower) ${names[0]}${names.length > 1 ? ` +${names.length - 1}` : ''}` : '$(radio-tower) MCP Gateway';
    item.tooltip = names.length
      ? `MCP Host gateway: ${names.join(', ')} connected (each names itself). Click to connect another agent.`
      : `MCP Host gateway on 127.0.0.1:${gateway.address.port}: no agent connected. Click to connect one.`;
    item.show();
  };

  /** Each connected client, a row at the top of the Servers view: Disconnect on it ends it. */
  const showRows = () =>
    rows.show(
      (gateway?.clients.list() ?? []).map((c) => ({
        id: `gatewayClient.${c.key}`,
        label: labelText(c.name),
        description: 'connected through the MCP Host gateway',
        tooltip: `${plainText(c.name)} (its own name for itself) uses your MCP servers through the MCP Host gateway. Disconnect ends it; make a new gateway token to keep it out.`,
        icon: 'radio-tower',
        command: CommandIds.connectAgent,
      })),
    );

  const disconnect = async (client: unknown) => {
    const key = typeof client === 'string' ? client : (client as { notice?: { id?: unknown } } | undefined)?.notice?.id;
    const running = gateway;
    const found = typeof key === 'string' && running?.clients.list().find((c) => c.key === key || `gatewayClient.${c.key}` === key);
    if (!running || !found) return;
    running.disconnect(found.key);
    log?.info(`Gateway: ${found.name} disconnected by you.`);
    if (found.era === 'modern') {
      void vscode.window.showInformationMessage(`${plainText(found.name)} was disconnected from the MCP Host gateway. It keeps no connection open: its next request connects it again. To keep it out, run MCP Host: New Gateway Token.`);
    }
  };

  const newToken = async () => {
    await starting?.catch(() => undefined);
    const wasRunning = !!gateway;
    if (wasRunning) await stop();
    await credentials(deps.secrets, true);
    if (wasRunning) await controller.start();
    void vscode.window.showInformationMessage(
      `The MCP Host gateway has a new token${wasRunning ? ': every agent was disconnected' : ''}. Agents that had the old one are refused: connect each again (MCP Host: Connect an Agent…).`,
    );
  };

  const start = async () => {
    if (gateway) return;
    const { token, path } = await credentials(deps.secrets);
    definition.renewToken();
    log ??= vscode.window.createOutputChannel('MCP Host Gateway', { log: true });
    const output = log;
    const options = {
      relay: new GatewayRelay({ sessions: deps.sessions, caller: deps.caller }),
      onDidChangeServers: (listener: () => void) => deps.sessions.onDidChangeServers(listener),
      path,
      token,
      version: deps.version,
      editorToken: definition.editorToken,
      log: (message: string) => output.info(message),
    };
    const lastPort = deps.state.get<number>(PORT_KEY);
    try {
      gateway = await startGateway({ ...options, port: lastPort });
    } catch (e) {
      // The port is taken (another window's gateway, or another program): any free one.
      if (!lastPort || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      gateway = await startGateway({ ...options, port: 0 });
    }
    await deps.state.update(PORT_KEY, gateway.address.port);
    // Only while it runs, and never written to disk: an integrated terminal started now finds the gateway.
    deps.environment.persistent = false;
    deps.environment.description = 'The MCP Host gateway: its address and token, for agents started in this terminal.';
    deps.environment.replace(GATEWAY_URL_VARIABLE, gateway.url);
    deps.environment.replace(GATEWAY_TOKEN_VARIABLE, token);
    const refresh = setInterval(show, 30_000);
    subscriptions.push(gateway.clients.onDidChange(show), { dispose: () => clearInterval(refresh) });
    show();
    offerToVsCode();
    // VS Code's MCP support turned on or off: the definition comes (and is started) or goes.
    subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('chat.mcp') && offerToVsCode()),
      { dispose: () => clearTimeout(startInVsCode) },
    );
  };

  const stop = async () => {
    await starting?.catch(() => undefined);
    const running = gateway;
    gateway = undefined;
    for (const d of subscriptions.splice(0)) d.dispose();
    deps.environment.delete(GATEWAY_URL_VARIABLE);
    deps.environment.delete(GATEWAY_TOKEN_VARIABLE);
    item.hide();
    showRows();
    if (running) definitionsChanged();
    await running?.stop();
  };

  const connectAgent = async () => {
    if (!gateway) {
      const answer = await vscode.window.showInformationMessage('The MCP Host gateway is off: agents cannot reach your MCP servers. Start it?', 'Start Gateway');
      if (answer !== 'Start Gateway') return;
      await controller.start();
    }
    const running = gateway;
    if (!running) return;
    const setups = agentSetups(running.url, running.address.token);
    const picked = await vscode.window.showQuickPick(
      setups.map((s) => ({ label: s.label, detail: s.where, setup: s })),
      { title: 'Connect an Agent to the MCP Host Gateway', placeHolder: 'Which agent? Its command or configuration opens, to copy' },
    );
    if (!picked) return;
    // The document shows the token masked: VS Code keeps untitled documents on disk (hot exit). Copy puts it in.
    const shown = agentSetups(running.url, HIDDEN_TOKEN).find((s) => s.id === picked.setup.id)!;
    const document = await vscode.workspace.openTextDocument({ language: shown.language, content: agentSetupDocument(shown) });
    await vscode.window.showTextDocument(document, { preview: true });
    const copy = await vscode.window.showInformationMessage(plainText(`${picked.setup.label}: ${picked.setup.where} Copy puts it on the clipboard with the gateway's token in place of ${HIDDEN_TOKEN}: do not share or commit it.`), 'Copy');
    if (copy === 'Copy') await vscode.env.clipboard.writeText(picked.setup.text);
  };

  const controller: GatewayController = {
    start: () =>
      (starting ??= start()
        .catch((e: unknown) => void vscode.window.showErrorMessage(`MCP Host: the gateway could not start: ${plainText(e instanceof Error ? e.message : String(e))}`))
        .finally(() => (starting = undefined))),
    stop,
    connectAgent,
    disconnect,
    newToken,
    definitions: () => definition.definitions(),
    resolveDefinition: (given) => definition.resolve(given),
    get running() {
      const g = gateway;
      return g && { url: g.url, token: g.address.token, editorToken: g.address.editorToken, clients: () => g.clients.list().map((c) => c.name) };
    },
    dispose: () => {
      void stop();
      item.dispose();
      log?.dispose();
    },
  };
  context.subscriptions.push(controller);
  return controller;
}
