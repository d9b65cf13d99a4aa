// The gateway as the unit suites run it: the core host's server manager, the one guarded call path (consent answered
// by `ask`, permissions in memory) and the gateway's HTTP server in this process, as in the extension host.
import { GatewayRelay } from '../../src/core/features/gateway/gatewayRelay';
import { startGateway, type RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { newGatewayPath, newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent, type ToolConsentDeps } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import type { ServerInfo } from '../../src/core/host/serverInfo';
import { fixtureServer } from './helpers';
import { entry, MemoryStore, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

/** A gateway over `kit`'s servers; `editorToken`: the token of VS Code's own MCP support, if it has one. */
export function startTestGateway(kit: Kit, ask: ToolConsentDeps['ask'], editorToken?: string): Promise<RunningGateway> {
  const relay = new GatewayRelay({ sessions: kit.manager, caller: guardedCaller(kit, ask) });
  return startGateway({ relay, onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), ...(editorToken ? { editorToken } : {}), version: '0.0.0' });
}

/** The one guarded call path over `kit`'s servers, consent answered by `ask`, permissions in memory. */
export function guardedCaller(kit: Kit, ask: ToolConsentDeps['ask']): ToolCaller {
  const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
  return new ToolCaller(kit.manager, new ActiveToolCalls(), new ToolConsent({ permissions, ask, autoAllowReadOnly: () => false }));
}

/** The two servers the gateway suites use, running: `alpha` (basic-server) and `slow` (slow-tool-server). */
export async function startAlphaAndSlow(kit: Kit): Promise<{ alpha: ServerInfo; slow: ServerInfo }> {
  await kit.update(workspaceScope(), [entry('alpha', stdio(process.execPath, [fixtureServer('basic-server.mjs')])), entry('slow', stdio(process.execPath, [fixtureServer('slow-tool-server.mjs')]))], []);
  return { alpha: await waitForState(kit, 'alpha', 'running'), slow: await waitForState(kit, 'slow', 'running') };
}
