// MCP tools for every agent: `mcpHost_listTools` and `mcpHost_callTool`, registered with vscode.lm, so VS Code's
// agent mode and other extensions' participants (through vscode.lm.invokeTool) reach the tools of the running,
// trusted servers. What they do (./agentToolCalls.lazy.ts) loads when an agent first uses one; only their registration
// runs on activation.
import vscode = require('vscode');
import { CALL_TOOL_TOOL, LIST_TOOLS_TOOL, type CallToolInput, type ListToolsInput } from '../../core/features/tools/agentTools';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { SessionPort } from '../../core/host/serverSession';
import type { AppViews } from '../apps/appViews';
import type { ChatResources } from '../chat/registerChatParticipant';
import type { ToolSettings } from './toolSettings';

export interface AgentToolCallDeps {
  sessions: SessionPort;
  consent: ToolConsent;
  caller: ToolCaller;
  resources: Pick<ChatResources, 'read'>;
  /** Read at each use: the tool search's limit, whether an agent's call opens a tool's view. */
  settings(): Pick<ToolSettings, 'maxToolsPerRequest' | 'openViewsForAgentCalls'>;
  /** Views of tool results (MCP Apps): a result whose tool has one opens it. */
  views?: Pick<AppViews, 'showLatest'>;
  /** Extension tests: keep what each call was prepared with. */
  record?: PreparedAgentCall[];
}

/** What VS Code was told before a call (tests read it: they cannot read the chat view). */
export interface PreparedAgentCall {
  input: CallToolInput;
  invocationMessage: string;
  confirmation?: { title: string; message: string };
}

/** The two tools as vscode.lm takes them. */
export interface AgentTools {
  listTools: vscode.LanguageModelTool<ListToolsInput>;
  callTool: vscode.LanguageModelTool<CallToolInput>;
}

/** Registers the two tools; `tools` is built at their first use. */
export function registerAgentTools(tools: AgentTools): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool<ListToolsInput>(LIST_TOOLS_TOOL, { prepareInvocation: (o, t) => tools.listTools.prepareInvocation!(o, t), invoke: (o, t) => tools.listTools.invoke(o, t) }),
    vscode.lm.registerTool<CallToolInput>(CALL_TOOL_TOOL, { prepareInvocation: (o, t) => tools.callTool.prepareInvocation!(o, t), invoke: (o, t) => tools.callTool.invoke(o, t) }),
  );
}
