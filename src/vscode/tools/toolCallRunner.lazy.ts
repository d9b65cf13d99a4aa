// "MCP Host: Call Tool…" once a tool is chosen (loaded on demand: a tool comes from a running server): the
// arguments from the call form (or given with the command, then shown in the consent dialog), consent on the one
// guarded path, the call with progress and Cancel, and its result in a read-only view with "Run again".
import vscode = require('vscode');
import type { CallToolResult } from '@modelcontextprotocol/client';
import { hasView } from '../../core/features/tools/toolUi';
import { toolLabel } from '../../core/presentation/serverPresentation';
import { plainText } from '../../core/presentation/serverText';
import { cancelledByOf, cancelledToolCall, progressText } from '../../core/presentation/toolCallText';
import { toolResultView } from '../../core/features/tools/toolResultView.lazy';
import { abortOnCancel } from '../cancellation';
import { collectToolArguments, pickTool } from './toolCallForm.lazy';
import type { ToolCallOutcome, ToolCallRunner as ToolCallRunnerContract, ToolCallRunnerDeps, ToolChoice } from './toolCommands';
import type { ToolResultPage } from './toolResultHtml.lazy';
import { ToolResultPanels } from './toolResultPanels.lazy';
import { MarkdownResults } from './markdownResults.lazy';
import { isTerminal, type ToolTask } from '../../core/features/tasks/toolTask';
import { taskKeyOf, toolTasks } from './taskRows.lazy';

const ORIGIN = 'the command MCP Host: Call Tool…';

const isArgumentsObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export class ToolCallRunner implements ToolCallRunnerContract {
  private readonly panels = new ToolResultPanels();
  /** The result view of each task (by task key), so that reopening one shows it in the same view. */
  private readonly taskViews = new Map<string, string>();
  private markdownResults: MarkdownResults | undefined;

  constructor(private readonly deps: ToolCallRunnerDeps) {}

  /**
   * `choice` undefined: the user picks a tool. Given arguments replace the form, so the consent dialog shows them
   * every time, "always allow" or not: a command link in Markdown (or a keybinding, another extension) must not run a
   * tool with arguments the user has not seen.
   */
  async callTool(choice: ToolChoice | undefined, given: unknown): Promise<ToolCallOutcome | undefined> {
    const chosen = choice ?? (await pickTool(this.deps.sessions));
    if (!chosen) return undefined;
    const argumentsFromCaller = isArgumentsObject(given);
    const args = argumentsFromCaller ? given : await collectToolArguments(chosen, this.deps.dialogs);
    if (!args) return undefined;
    return this.run(chosen, args, { argumentsFromCaller });
  }

  /** "Run again" and "Change arguments and run…" in a result's view. */
  async rerun(callId: unknown, options?: { edit?: boolean }): Promise<ToolCallOutcome | undefined> {
    const { deps, panels } = this;
    const call = typeof callId === 'string' ? panels.call(callId) : undefined;
    if (!call) {
      void vscode.window.showWarningMessage('That tool call is no longer known: call the tool again with MCP Host: Call Tool….');
      return undefined;
    }
    const choice = deps.choiceOf(call.serverId, call.toolName);
    if (!choice) {
      void vscode.window.showWarningMessage(`The tool "${plainText(call.toolName)}" is not available: is its server running?`);
      return undefined;
    }
    const args = options?.edit ? await collectToolArguments(choice, deps.dialogs, call.arguments) : call.arguments;
    if (!args) return undefined;
    if (args !== call.arguments) call.arguments = args;
    return this.run(choice, args, { argumentsFromCaller: false }, callId as string);
  }

  /** Runs a call whose arguments are settled, with progress and Cancel, and shows its result in the call's view. */
  async run(choice: ToolChoice, args: Record<string, unknown>, how: { argumentsFromCaller: boolean }, callId?: string): Promise<ToolCallOutcome | undefined> {
    const { deps, panels } = this;
    const call = { serverId: choice.server.id, tool: choice.tool, arguments: args, origin: ORIGIN };
    // Arguments the user saw and confirmed in the form (or a result's "Run again") need no second consent.
    const authorized = await deps.caller.authorize(call, { argumentsFromCaller: how.argumentsFromCaller, confirmedByUser: !how.argumentsFromCaller }).catch((e: Error) => {
      void vscode.window.showWarningMessage(plainText(e.message));
      return undefined;
    });
    if (!authorized) return undefined;
    if (!authorized.allowed) {
      void vscode.window.showInformationMessage(
        `The tool "${plainText(choice.tool.name)}" was not run: ${authorized.consent.reason === 'remembered' ? 'denied by a saved decision (MCP Host: Manage Permissions… changes it)' : 'denied'}.`,
      );
      return undefined;
    }
    const id = callId ?? panels.record({ serverId: choice.server.id, toolName: choice.tool.name, arguments: args });
    const abort = new AbortController();
    const started = Date.now();
    let outcome: ToolResultPage['outcome'];
    let result: CallToolResult | undefined;
    let task: ToolTask | undefined;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plainText(`${choice.tool.name} (${choice.server.name})`), cancellable: true },
        (progress, token) => {
          abortOnCancel(token, abort);
          let reported = 0;
          return authorized.run({
            signal: abort.signal,
            onTask: (started) => {
              task = started;
              this.taskViews.set(started.key, id);
            },
            onProgress: (p) => {
              const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
              // The server's step text (or "2 of 5" when it sends none), capped: never a bare bar.
              progress.report({ message: progressText(p) || undefined, increment: percent === undefined ? undefined : percent - reported });
              if (percent !== undefined) reported = percent;
            },
          });
        },
      );
      outcome = { kind: 'result', view: toolResultView(result), durationMs: Date.now() - started };
    } catch (e) {
      // Cancelled from its notification, from its task's row, or by its server's stop or restart: the view says so.
      const by = cancelledByOf(e) ?? (abort.signal.aborted || task?.status === 'cancelled' ? 'you' : undefined);
      const durationMs = Date.now() - started;
      outcome = by
        ? { kind: 'cancelled', message: cancelledToolCall(choice.tool.name, choice.server.name, by), durationMs }
        : { kind: 'failed', message: String((e as Error)?.message ?? e), durationMs };
    }
    const html = panels.show(id, {
      serverId: choice.server.id,
      serverName: choice.server.name,
      toolName: choice.tool.name,
      toolTitle: toolLabel(choice.tool),
      argumentsJson: JSON.stringify(args, null, 2),
      outcome,
    });
    if (result && deps.views && hasView(choice.tool)) {
      const call = { serverId: choice.server.id, serverName: choice.server.name, tool: choice.tool, arguments: args, result };
      deps.views.show(call).catch((e: Error) => vscode.window.showErrorMessage(`The view of "${plainText(choice.tool.name)}" could not open: ${plainText(e.message)}`));
    }
    return { callId: id, result, failure: outcome.kind === 'result' ? undefined : outcome.message, arguments: args, html };
  }

  /** "Open as Markdown Preview" under a text block of a result's view. */
  async previewResult(callId: unknown, index: unknown): Promise<void> {
    const call = typeof callId === 'string' ? this.panels.call(callId) : undefined;
    const text = call && typeof index === 'number' ? this.panels.text(callId as string, index) : undefined;
    if (!call || text === undefined) {
      void vscode.window.showWarningMessage('That tool result is no longer kept: run the tool again to preview it.');
      return;
    }
    this.markdownResults ??= new MarkdownResults();
    await this.markdownResults.preview(call.toolName, text);
  }

  /** "Open Task Result" on a task's row: its result (or why it ended) in the result view, as often as asked. */
  openTaskResult(arg: unknown): string | undefined {
    const key = taskKeyOf(arg);
    const task = key === undefined ? undefined : toolTasks().get(key);
    if (!task) {
      void vscode.window.showWarningMessage('That task is no longer known: its server was restarted, or it is long finished.');
      return undefined;
    }
    if (!isTerminal(task.status)) {
      void vscode.window.showInformationMessage(`The task of "${plainText(task.tool.name)}" is still running: its result opens when it is done.`);
      return undefined;
    }
    const known = this.taskViews.get(task.key);
    const id = known && this.panels.call(known) ? known : this.panels.record({ serverId: task.serverId, toolName: task.tool.name, arguments: task.arguments });
    this.taskViews.set(task.key, id);
    const durationMs = (task.endedAt ?? Date.now()) - task.startedAt;
    return this.panels.show(id, {
      serverId: task.serverId,
      serverName: task.serverName,
      toolName: task.tool.name,
      toolTitle: toolLabel(task.tool),
      argumentsJson: JSON.stringify(task.arguments, null, 2),
      outcome: task.result ? { kind: 'result', view: toolResultView(task.result), durationMs } : { kind: 'failed', message: task.failure ?? 'The task failed.', durationMs },
    });
  }

  /** "Cancel Task" on a running task's row: `tasks/cancel`; a server that refuses says why. */
  async cancelTask(arg: unknown): Promise<void> {
    const key = taskKeyOf(arg);
    if (key !== undefined) await toolTasks().cancel(key).catch((e: Error) => vscode.window.showWarningMessage(plainText(e.message)));
  }

  dispose(): void {
    this.panels.dispose();
    this.markdownResults?.dispose();
  }
}
