// "MCP: Call Tool…" runs one tool outside chat. Its arguments come from a form built from the input schema (the
// elicitation form machinery, worded as a tool call), or from JSON typed by hand when the schema is beyond a flat
// form: what the user confirms there is the consent. Arguments that came with the command (a link, another extension)
// are shown in the consent dialog instead. The call runs with progress and Cancel, and its result opens in a
// read-only view with "Run again".
// "MCP: Reset Tool Permissions" forgets every saved "always allow".
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { consentSubject } from '../../core/features/consentSubject';
import type { SessionPort } from '../../core/host/serverSession';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import { plainText } from '../../core/presentation/serverText';
import type { AppViews } from '../apps/appViews';
import { hasView } from '../../core/features/apps/appMeta';
import type { HostDialogs } from '../dialogs';
import type { LoadSessionLayer } from '../sessionLayer';
import { ToolNode } from '../serverNodes';
import { type ToolResultPage } from '../session/toolResultHtml';
import { ToolResultPanels } from './toolResultPanels';
import { CommandIds } from '../../core/common/commandIds';
import { toolLabel } from '../../core/presentation/serverPresentation';
import { abortOnCancel } from '../cancellation';
import type { ToolChoice } from '../session/toolCallForm';

export interface ToolCommandDeps {
  sessions: SessionPort;
  session: LoadSessionLayer;
  consent: ToolConsent;
  caller: ToolCaller;
  dialogs: HostDialogs;
  /** Where a tool's view (MCP Apps) opens beside its result. */
  views?: Pick<AppViews, 'show'>;
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


const ORIGIN = 'MCP: Call Tool… (outside chat)';

/** The tool a command was invoked on: a Servers-view tool item, or `(serverId, toolName)`. */
function choiceFrom(sessions: SessionPort, arg: unknown, toolName: unknown): ToolChoice | undefined {
  const serverId = arg instanceof ToolNode ? arg.serverId : typeof arg === 'string' ? arg : undefined;
  const name = arg instanceof ToolNode ? arg.tool.name : typeof toolName === 'string' ? toolName : undefined;
  const server = sessions.servers().find((s) => s.id === serverId && s.state.kind === 'running');
  const tool = server?.features.tools.find((t) => t.name === name);
  return server && tool ? { server, tool } : undefined;
}

const isArgumentsObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  const panels = new ToolResultPanels(deps.session);

  /** Runs a call whose arguments are settled, with progress and Cancel, and shows its result in the call's view. */
  async function run(choice: ToolChoice, args: Record<string, unknown>, how: { argumentsFromCaller: boolean }, callId?: string): Promise<ToolCallOutcome | undefined> {
    const consent = await deps.consent.check({
      consentSubject: consentSubject(choice.server.scope, choice.server.name, choice.server.definition),
      serverName: choice.server.name,
      tool: choice.tool,
      arguments: args,
      argumentsFromCaller: how.argumentsFromCaller,
      // Arguments the user saw and confirmed in the form (or a result's "Run again") need no second consent.
      confirmedByUser: !how.argumentsFromCaller,
    });
    if (!consent.allowed) {
      void vscode.window.showInformationMessage(
        `The tool "${plainText(choice.tool.name)}" was not run: ${consent.reason === 'remembered' ? 'denied by a saved decision (MCP: Manage Permissions… changes it)' : 'denied'}.`,
      );
      return undefined;
    }
    const id = callId ?? panels.record({ serverId: choice.server.id, toolName: choice.tool.name, arguments: args });
    const abort = new AbortController();
    const started = Date.now();
    let outcome: ToolResultPage['outcome'];
    let result: CallToolResult | undefined;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plainText(`${choice.tool.name} (${choice.server.name})`), cancellable: true },
        (progress, token) => {
          abortOnCancel(token, abort);
          let reported = 0;
          return deps.caller.call({
            serverId: choice.server.id,
            tool: choice.tool,
            arguments: args,
            origin: ORIGIN,
            signal: abort.signal,
            onProgress: (p) => {
              const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
              progress.report({ message: p.message === undefined ? undefined : plainText(p.message), increment: percent === undefined ? undefined : percent - reported });
              if (percent !== undefined) reported = percent;
            },
          });
        },
      );
      outcome = { kind: 'result', view: deps.session().toolResultView(result), durationMs: Date.now() - started };
    } catch (e) {
      if (abort.signal.aborted) return undefined;
      outcome = { kind: 'failed', message: String((e as Error)?.message ?? e), durationMs: Date.now() - started };
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
    return { callId: id, result, failure: outcome.kind === 'failed' ? outcome.message : undefined, arguments: args, html };
  }

  /**
   * Arguments (all optional): a tool item or server id, a tool name, and the call's arguments. Given arguments replace
   * the form, so the consent dialog shows them every time, "always allow" or not: a command link in Markdown (or a
   * keybinding, another extension) must not run a tool with arguments the user has not seen.
   */
  async function callTool(arg?: unknown, toolName?: unknown, given?: unknown): Promise<ToolCallOutcome | undefined> {
    const choice = choiceFrom(deps.sessions, arg, toolName) ?? (arg === undefined ? await deps.session().pickTool(deps.sessions) : undefined);
    if (!choice) {
      if (arg !== undefined) void vscode.window.showWarningMessage('That MCP tool is not available: is its server running?');
      return undefined;
    }
    const argumentsFromCaller = isArgumentsObject(given);
    const args = argumentsFromCaller ? given : await deps.session().collectToolArguments(choice, deps.dialogs);
    if (!args) return undefined;
    return run(choice, args, { argumentsFromCaller });
  }

  /** "Run again" and "Change arguments and run…" in a result's view. */
  async function rerun(callId: unknown, options?: { edit?: boolean }): Promise<ToolCallOutcome | undefined> {
    const call = typeof callId === 'string' ? panels.call(callId) : undefined;
    if (!call) {
      void vscode.window.showWarningMessage('That tool call is no longer known: call the tool again with MCP: Call Tool….');
      return undefined;
    }
    const choice = choiceFrom(deps.sessions, call.serverId, call.toolName);
    if (!choice) {
      void vscode.window.showWarningMessage(`The tool "${plainText(call.toolName)}" is not available: is its server running?`);
      return undefined;
    }
    const args = options?.edit ? await deps.session().collectToolArguments(choice, deps.dialogs, call.arguments) : call.arguments;
    if (!args) return undefined;
    if (args !== call.arguments) call.arguments = args;
    return run(choice, args, { argumentsFromCaller: false }, callId as string);
  }

  return [
    panels,
    vscode.commands.registerCommand(CommandIds.callTool, callTool),
    vscode.commands.registerCommand(CommandIds.rerunToolCall, rerun),
    vscode.commands.registerCommand(CommandIds.resetToolPermissions, async () => {
      const n = await deps.consent.reset();
      void vscode.window.showInformationMessage(
        n ? `Forgot ${n} saved tool decision${n === 1 ? '' : 's'}: every tool asks again before it runs.` : 'There were no saved tool decisions.',
      );
    }),
  ];
}
