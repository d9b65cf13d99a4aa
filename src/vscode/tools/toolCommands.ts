// "MCP: Call Tool…" runs one tool outside chat; "MCP: Reset Tool Permissions" forgets every saved "always allow".
// Here: which tool a command was invoked on (a Servers-view item or `(serverId, toolName)`); the form, the consent,
// the call and its result view are the session layer's (session/toolCallRunner.ts), loaded when a call starts.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { SessionPort } from '../../core/host/serverSession';
import type { AppViews } from '../apps/appViews';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { ToolNode } from '../servers/serverNodes';
import type { ToolChoice } from './toolCallForm.lazy';
import type { ToolCallOutcome, ToolCallRunner } from './toolCallRunner.lazy';
import type { LoadSessionLayer } from '../sessionLayer';

export type { ToolCallOutcome } from './toolCallRunner.lazy';

export interface ToolCommandDeps {
  sessions: SessionPort;
  session: LoadSessionLayer;
  consent: ToolConsent;
  caller: ToolCaller;
  dialogs: HostDialogs;
  /** Where a tool's view (MCP Apps) opens beside its result. */
  views?: Pick<AppViews, 'show'>;
}

/** The tool a command was invoked on: a Servers-view tool item, or `(serverId, toolName)`. */
function choiceFrom(sessions: SessionPort, arg: unknown, toolName: unknown): ToolChoice | undefined {
  const serverId = arg instanceof ToolNode ? arg.serverId : typeof arg === 'string' ? arg : undefined;
  const name = arg instanceof ToolNode ? arg.tool.name : typeof toolName === 'string' ? toolName : undefined;
  const server = sessions.servers().find((s) => s.id === serverId && s.state.kind === 'running');
  const tool = server?.features.tools.find((t) => t.name === name);
  return server && tool ? { server, tool } : undefined;
}

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  let runner: ToolCallRunner | undefined;
  const calls = (): ToolCallRunner =>
    (runner ??= new (deps.session().ToolCallRunner)({ ...deps, choiceOf: (serverId, toolName) => choiceFrom(deps.sessions, serverId, toolName) }));

  /** Arguments (all optional): a tool item or server id, a tool name, and the call's arguments. */
  async function callTool(arg?: unknown, toolName?: unknown, given?: unknown): Promise<ToolCallOutcome | undefined> {
    const choice = choiceFrom(deps.sessions, arg, toolName);
    if (!choice && arg !== undefined) {
      void vscode.window.showWarningMessage('That MCP tool is not available: is its server running?');
      return undefined;
    }
    return calls().callTool(choice, given);
  }

  return [
    { dispose: () => runner?.dispose() },
    vscode.commands.registerCommand(CommandIds.callTool, callTool),
    vscode.commands.registerCommand(CommandIds.cancelTask, (arg: unknown) => calls().cancelTask(arg)),
    vscode.commands.registerCommand(CommandIds.openTaskResult, (arg: unknown) => calls().openTaskResult(arg)),
    vscode.commands.registerCommand(CommandIds.rerunToolCall, (callId: unknown, options?: { edit?: boolean }) => calls().rerun(callId, options)),
    vscode.commands.registerCommand(CommandIds.resetToolPermissions, async () => {
      const n = await deps.consent.reset();
      void vscode.window.showInformationMessage(
        n ? `Forgot ${n} saved tool decision${n === 1 ? '' : 's'}: every tool asks again before it runs.` : 'There were no saved tool decisions.',
      );
    }),
  ];
}
