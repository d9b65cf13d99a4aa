// `mcp-host gateway`: the gateway without VS Code. The servers of the mcp.json are started (each asking trust, unless
// --yes), then served on 127.0.0.1 as the extension serves them (src/core/features/gateway), until Ctrl+C or SIGTERM.
// The address and token go to stdout as `NAME=value` lines (the token only when it was made here: set
// MCP_HOST_GATEWAY_TOKEN to choose it); each tool call a client makes asks on this terminal, naming the client.
import { GATEWAY_TOKEN_VARIABLE, GATEWAY_URL_VARIABLE } from '../core/features/gateway/agentSetup';
import { startGateway } from '../core/features/gateway/gatewayHttp.lazy';
import { GatewayRelay } from '../core/features/gateway/gatewayRelay';
import { isGatewaySecret, newGatewayPath, newGatewaySecret } from '../core/features/gateway/gatewayRequestCheck';
import { ToolTasks } from '../core/features/tasks/toolTasks.lazy';
import type { ActiveToolCalls } from '../core/features/tools/activeToolCalls';
import { ToolCaller } from '../core/features/tools/toolCaller';
import { ToolConsent } from '../core/features/tools/toolConsent';
import { checkToolOutput } from '../core/features/tools/toolOutputCheck.lazy';
import type { ConsentAnswer } from '../core/features/userQuestions';
import type { PermissionStore } from '../core/host/permissionStore';
import type { ServerManager } from '../core/host/serverManager';

export interface GatewayCommandDeps {
  manager: ServerManager;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  /** Allow every call without asking (--yes). */
  yes: boolean;
  env: NodeJS.ProcessEnv;
  /** Asks yes or no on the terminal; undefined once the input has ended. */
  yesNo(question: string): Promise<boolean | undefined>;
  say(line: string): void;
  print(text: string): void;
}

export async function serveGateway(deps: GatewayCommandDeps, port: number | undefined): Promise<number> {
  const { manager } = deps;
  for (const s of manager.servers()) await manager.get(s.id)?.start(true);
  if (!manager.servers().some((s) => s.state.kind === 'running')) {
    deps.say('No server is running: the gateway would offer nothing.');
    return 1;
  }
  const given = deps.env[GATEWAY_TOKEN_VARIABLE];
  const token = isGatewaySecret(given) ? given : newGatewaySecret();
  if (given !== undefined && token !== given) deps.say(`${GATEWAY_TOKEN_VARIABLE} is not a token the gateway takes (43 characters of A-Z, a-z, 0-9, _ and -): a new one was made.`);
  // One question at a time on this terminal, however many clients call at once.
  let asking: Promise<unknown> = Promise.resolve();
  const consent = new ToolConsent({
    permissions: deps.permissions,
    autoAllowReadOnly: () => false,
    ask: (q) => {
      const answer = asking.then(async (): Promise<ConsentAnswer> => {
        if (deps.yes) return 'once';
        const allowed = await deps.yesNo(`${q.caller ?? 'A client'} (through the gateway) wants to run ${q.serverName}.${q.toolName}${q.destructive ? ' (may change things)' : ''} with:\n${q.argumentsJson}\nAllow?`);
        return allowed ? 'once' : 'deny';
      });
      asking = answer.catch(() => undefined);
      return answer;
    },
  });
  const caller = new ToolCaller(manager, deps.activeToolCalls, consent, new ToolTasks({ checkResult: checkToolOutput }));
  const gateway = await startGateway({
    relay: new GatewayRelay({ sessions: manager, caller }),
    onDidChangeServers: (listener) => manager.onDidChangeServers(listener),
    path: newGatewayPath(),
    token,
    port,
    version: '0.1.0',
    log: (message) => deps.say(message),
  });
  deps.print(`${GATEWAY_URL_VARIABLE}=${gateway.url}`);
  if (token !== given) deps.print(`${GATEWAY_TOKEN_VARIABLE}=${token}`);
  deps.say('Serving the gateway until interrupted (Ctrl+C).');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await gateway.stop();
  return 0;
}
