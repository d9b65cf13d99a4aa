// "MCP: Call Tool…" runs one tool outside chat; "MCP: Reset Tool Permissions" forgets every saved "always allow".
// Here: which tool a command was invoked on (a Servers-view item or `(serverId, toolName)`); the form, the consent,
// the call and its result view (./toolCallRunner.lazy.ts) load when a call starts.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { SessionPort } from '../../core/host/serverSession';
import type { AppViews } from '../apps/appViews';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { offersFeatures, type ServerInfo, type Tool } from '../../core/host/serverInfo';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { ToolNode } from '../servers/serverNodes';

/** A tool of a running server, as a command names it. */
export interface ToolChoice {
  server: ServerInfo;
  tool: Tool;
}

export interface ToolCallOutcome {
  callId: string;
  /** Undefined when the call failed (a protocol error, a timeout, the server gone). */
  result: CallToolResult | undefined;
  failure: string | undefined;
  arguments: Record<string, unknown>;
  /** The result's view as rendered (tests cannot read webviews). */
  html: string;
}

export interface ToolCallRunnerDeps {
  sessions: SessionPort;
  caller: ToolCaller;
  dialogs: HostDialogs;
  /** Where a tool's view (MCP Apps) opens beside its result. */
  views?: Pick<AppViews, 'show'>;
  /** The running server's tool, found again (for "Run again"). */
  choiceOf(serverId: string, toolName: string): ToolChoice | undefined;
}

/** "MCP: Call Tool…" and the task rows' commands, once a call starts (./toolCallRunner.lazy.ts). */
export interface ToolCallRunner extends vscode.Disposable {
  /** `choice` undefined: the user picks a tool. `given`: arguments that came with the command (shown for consent). */
  callTool(choice: ToolChoice | undefined, given: unknown): Promise<ToolCallOutcome | undefined>;
  /** "Run again" and "Change arguments and run…" in a result's view. */
  rerun(callId: unknown, options?: { edit?: boolean }): Promise<ToolCallOutcome | undefined>;
  /** "Open as Markdown Preview" under a text block of a result's view. */
  previewResult(callId: unknown, index: unknown): Promise<void>;
  /** "Open Task Result" on a task's row; the view's HTML, for tests. */
  openTaskResult(arg: unknown): string | undefined;
  /** "Cancel Task" on a running task's row. */
  cancelTask(arg: unknown): Promise<void>;
}

export interface ToolCommandDeps {
  sessions: SessionPort;
  consent: ToolConsent;
  caller: ToolCaller;
  dialogs: HostDialogs;
  /** Where a tool's view (MCP Apps) opens beside its result. */
  views?: Pick<AppViews, 'show'>;
  /** The runner of calls; what it is built with. */
  toolCallRunner(deps: ToolCallRunnerDeps): ToolCallRunner;
}

/** The tool a command was invoked on: a Servers-view tool item, or `(serverId, toolName)`. */
function choiceFrom(sessions: SessionPort, arg: unknown, toolName: unknown): ToolChoice | undefined {
  const serverId = arg instanceof ToolNode ? arg.serverId : typeof arg === 'string' ? arg : undefined;
  const name = arg instanceof ToolNode ? arg.tool.name : typeof toolName === 'string' ? toolName : undefined;
  const server = sessions.servers().find((s) => s.id === serverId && offersFeatures(s.state));
  const tool = server?.features.tools.find((t) => t.name === name);
  return server && tool ? { server, tool } : undefined;
}

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  const runner = deps.toolCallRunner({ ...deps, choiceOf: (serverId, toolName) => choiceFrom(deps.sessions, serverId, toolName) });

  /** Arguments (all optional): a tool item or server id, a tool name, and the call's arguments. */
  async function callTool(arg?: unknown, toolName?: unknown, given?: unknown): Promise<ToolCallOutcome | undefined> {
    const choice = choiceFrom(deps.sessions, arg, toolName);
    if (!choice && arg !== undefined) {
      void vscode.window.showWarningMessage('That MCP tool is not available: is its server running?');
      return undefined;
    }
    return runner.callTool(choice, given);
  }

  return [
    runner,
    vscode.commands.registerCommand(CommandIds.callTool, callTool),
    vscode.commands.registerCommand(CommandIds.cancelTask, (arg: unknown) => runner.cancelTask(arg)),
    vscode.commands.registerCommand(CommandIds.openTaskResult, (arg: unknown) => runner.openTaskResult(arg)),
    vscode.commands.registerCommand(CommandIds.rerunToolCall, (callId: unknown, options?: { edit?: boolean }) => runner.rerun(callId, options)),
    vscode.commands.registerCommand(CommandIds.previewToolResult, (callId: unknown, index: unknown) => runner.previewResult(callId, index)),
    vscode.commands.registerCommand(CommandIds.resetToolPermissions, async () => {
      const n = await deps.consent.reset();
      void vscode.window.showInformationMessage(
        n ? `Forgot ${n} saved tool decision${n === 1 ? '' : 's'}: every tool asks again before it runs.` : 'There were no saved tool decisions.',
      );
    }),
  ];
}
