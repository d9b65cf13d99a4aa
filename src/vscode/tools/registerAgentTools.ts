// MCP tools for every agent: `mcpHost_listTools` and `mcpHost_callTool`, registered with vscode.lm, so VS Code's
// agent mode and other extensions' participants (through vscode.lm.invokeTool) reach the tools of the running,
// trusted servers. What they do is in the session layer (../session/agentToolCalls): a call needs a running server,
// which loaded it; only their registration runs on activation.
import vscode = require('vscode');
import { CALL_TOOL_TOOL, LIST_TOOLS_TOOL, type CallToolInput, type ListToolsInput } from '../../core/features/tools/agentTools';
import type { LoadSessionLayer, SessionLayer } from '../sessionLayer';
import type { AgentToolCallDeps, PreparedAgentCall } from './agentToolCalls.lazy';

/** What the tools use, and the session layer that does their work. */
export type AgentToolDeps = AgentToolCallDeps & { session: LoadSessionLayer };

export type { PreparedAgentCall };

export function registerAgentTools(deps: AgentToolDeps): vscode.Disposable {
  let made: ReturnType<SessionLayer['agentTools']> | undefined;
  const tools = () => (made ??= deps.session().agentTools(deps));
  return vscode.Disposable.from(
    vscode.lm.registerTool<ListToolsInput>(LIST_TOOLS_TOOL, { prepareInvocation: (o, t) => tools().listTools.prepareInvocation!(o, t), invoke: (o, t) => tools().listTools.invoke(o, t) }),
    vscode.lm.registerTool<CallToolInput>(CALL_TOOL_TOOL, { prepareInvocation: (o, t) => tools().callTool.prepareInvocation!(o, t), invoke: (o, t) => tools().callTool.invoke(o, t) }),
  );
}
