// The gateway as the unit suites run it: the core host's server manager, the one guarded call path (consent answered
// by `ask`, permissions in memory) and the gateway's HTTP server in this process, as in the extension host.
import { GatewayRelay } from '../../src/core/features/gateway/gatewayRelay';
import { startGateway, type RunningGateway } from '../../src/core/features/gateway/gatewayHttp.lazy';
import { newGatewayPath, newGatewaySecret } from '../../src/core/features/gateway/gatewayRequestCheck';
import { ActiveToolCalls } from '../../src/core/features/tools/activeToolCalls';
import { ToolCaller } from '../../src/core/features/tools/toolCaller';
import { ToolConsent, type ToolConsentDeps } from '../../src/core/features/tools/toolConsent';
import { PermissionStore } from '../../src/core/host/permissionStore';
import { MemoryStore, type Kit } from './hostTestKit';

/** A gateway over `kit`'s servers; `editorToken`: the token of VS Code's own MCP support, if it has one. */
export function startTestGateway(kit: Kit, ask: ToolConsentDeps['ask'], editorToken?: string): Promise<RunningGateway> {
  const permissions = new PermissionStore({ global: new MemoryStore(), workspace: new MemoryStore() });
  const consent = new ToolConsent({ permissions, ask, autoAllowReadOnly: () => false });
  const relay = new GatewayRelay({ sessions: kit.manager, caller: new ToolCaller(kit.manager, new ActiveToolCalls(), consent) });
  return startGateway({ relay, onDidChangeServers: (l) => kit.manager.onDidChangeServers(l), path: newGatewayPath(), token: newGatewaySecret(), ...(editorToken ? { editorToken } : {}), version: '0.0.0' });
}
