// "MCP: Call Tool…" runs one tool outside chat. Its arguments come from a form built from the input schema (the
// elicitation form machinery), or from JSON typed by hand when the schema is beyond a flat form; the call asks
// consent like chat does (always, when the arguments came with the command), runs with progress and cancel, and its
// result opens in an editor.
// "MCP: Reset Tool Permissions" forgets every saved "always allow".
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { toolResultToMarkdown } from '../../core/features/chat/contentMarkdown';
import { consentSubject } from '../../core/features/consentSubject';
import { formFromSchema } from '../../core/features/forms/formModel';
import type { SessionPort } from '../../core/host/serverSession';
import type { ToolCaller } from '../../core/features/tools/toolCaller';
import type { ToolConsent } from '../../core/features/tools/toolConsent';
import type { ServerInfo, Tool } from '../../core/host/types';
import { fenced, firstLine, labelText, markdownLine, plainText } from '../../core/presentation/serverText';
import { hasView, type AppViews } from '../apps/appViews';
import { showUntitledMarkdown } from '../chat/chatDocuments';
import type { HostDialogs } from '../dialogs';
import { runQuickInputForm } from '../forms/quickInputForm';

export interface ToolCommandDeps {
  sessions: SessionPort;
  consent: ToolConsent;
  caller: ToolCaller;
  dialogs: HostDialogs;
  /** The document that shows a resource a result links to (served by the resources feature). */
  documentUri(serverId: string, link: { uri: string; name: string; mimeType?: string }): vscode.Uri;
  /** Where a tool's view (MCP Apps) opens beside its result. */
  views?: Pick<AppViews, 'show'>;
}

export interface ToolCallOutcome {
  result: CallToolResult;
  document: vscode.TextDocument;
}

interface ToolChoice {
  server: ServerInfo;
  tool: Tool;
}

const ORIGIN = 'MCP: Call Tool… (outside chat)';

/** The tool a command was invoked on: a Servers-view tool item, or `(serverId, toolName)`. */
function choiceFrom(sessions: SessionPort, arg: unknown, toolName: unknown): ToolChoice | undefined {
  const node = arg as { serverId?: unknown; tool?: Tool } | undefined;
  const serverId = typeof arg === 'string' ? arg : typeof node?.serverId === 'string' ? node.serverId : undefined;
  const name = typeof toolName === 'string' ? toolName : node?.tool?.name;
  const server = sessions.servers().find((s) => s.id === serverId && s.state.kind === 'running');
  const tool = server?.features.tools.find((t) => t.name === name);
  return server && tool ? { server, tool } : undefined;
}

async function pickTool(sessions: SessionPort): Promise<ToolChoice | undefined> {
  const choices = sessions
    .servers()
    .filter((s) => s.state.kind === 'running')
    .flatMap((server) => server.features.tools.map((tool) => ({ server, tool })));
  if (!choices.length) {
    void vscode.window.showInformationMessage('No running MCP server offers tools.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({
      label: labelText(c.tool.title ?? c.tool.annotations?.title ?? c.tool.name),
      description: labelText(`${c.server.name} · ${c.tool.name}`),
      detail: c.tool.description ? labelText(firstLine(c.tool.description)) : undefined,
      choice: c,
    })),
    { placeHolder: 'Call which MCP tool?', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.choice;
}

/** A JSON object typed by hand (for schemas a form cannot express); asks again while it is not one. */
async function argumentsAsJson(choice: ToolChoice, dialogs: HostDialogs, why: string): Promise<Record<string, unknown> | undefined> {
  let value = '{}';
  let problem = '';
  for (;;) {
    const text = await dialogs.inputText({
      title: `Arguments of "${choice.tool.name}" (${choice.server.name}) as JSON`,
      prompt: `${problem || `A form cannot ask for these arguments (${why}): type them as a JSON object.`} Schema: ${JSON.stringify(choice.tool.inputSchema)}`,
      password: false,
      value,
    });
    if (text === undefined) return undefined;
    try {
      const parsed: unknown = JSON.parse(text.trim() || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      problem = 'That is not a JSON object.';
    } catch (e) {
      problem = `That is not valid JSON: ${(e as Error).message}.`;
    }
    value = text;
  }
}

async function collectArguments(choice: ToolChoice, dialogs: HostDialogs): Promise<Record<string, unknown> | undefined> {
  const form = formFromSchema(choice.tool.inputSchema);
  if (!form.ok) return argumentsAsJson(choice, dialogs, form.error);
  if (!form.form.fields.length) return {};
  const outcome = await runQuickInputForm(form.form, { title: `Call tool "${choice.tool.name}"`, serverName: choice.server.name, dialogs, review: true });
  return outcome.action === 'accept' ? outcome.values : undefined;
}

const isArgumentsObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  /**
   * Arguments (all optional): a tool item or server id, a tool name, and the call's arguments. Given arguments replace
   * the form, so the consent dialog shows them every time, "always allow" or not: a command link in Markdown (or a
   * keybinding, another extension) must not run a tool with arguments the user has not seen.
   */
  async function callTool(arg?: unknown, toolName?: unknown, given?: unknown): Promise<ToolCallOutcome | undefined> {
    const choice = choiceFrom(deps.sessions, arg, toolName) ?? (arg === undefined ? await pickTool(deps.sessions) : undefined);
    if (!choice) {
      if (arg !== undefined) void vscode.window.showWarningMessage('That MCP tool is not available: is its server running?');
      return undefined;
    }
    const argumentsFromCaller = isArgumentsObject(given);
    const args = argumentsFromCaller ? given : await collectArguments(choice, deps.dialogs);
    if (!args) return undefined;
    const consent = await deps.consent.check({
      consentSubject: consentSubject(choice.server.scope, choice.server.name, choice.server.definition),
      serverName: choice.server.name,
      tool: choice.tool,
      arguments: args,
      argumentsFromCaller,
    });
    if (!consent.allowed) {
      void vscode.window.showInformationMessage(`The tool "${plainText(choice.tool.name)}" was not run: ${consent.reason === 'remembered' ? 'denied by a saved decision' : 'denied'}.`);
      return undefined;
    }
    let result: CallToolResult;
    const abort = new AbortController();
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plainText(`${choice.tool.name} (${choice.server.name})`), cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort(new vscode.CancellationError()));
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
    } catch (e) {
      if (abort.signal.aborted) return undefined;
      void vscode.window.showErrorMessage(`The tool "${plainText(choice.tool.name)}" failed: ${plainText(String((e as Error)?.message ?? e))}`);
      return undefined;
    }
    const content = [
      `# ${markdownLine(choice.tool.title ?? choice.tool.name)} (${markdownLine(choice.server.name)})`,
      `Arguments:\n\n${fenced(JSON.stringify(args, null, 2), 'json')}`,
      toolResultToMarkdown(result, { linkTarget: (l) => deps.documentUri(choice.server.id, l).toString() }),
    ].join('\n\n');
    const document = await showUntitledMarkdown(`${content}\n`);
    if (deps.views && hasView(choice.tool)) {
      const call = { serverId: choice.server.id, serverName: choice.server.name, tool: choice.tool, arguments: args, result };
      deps.views.show(call).catch((e: Error) => vscode.window.showErrorMessage(`The view of "${plainText(choice.tool.name)}" could not open: ${plainText(e.message)}`));
    }
    return { result, document };
  }

  return [
    vscode.commands.registerCommand('mcpHost.callTool', callTool),
    vscode.commands.registerCommand('mcpHost.resetToolPermissions', async () => {
      const n = await deps.consent.reset();
      void vscode.window.showInformationMessage(
        n ? `Forgot ${n} saved tool decision${n === 1 ? '' : 's'}: every tool asks again before it runs.` : 'There were no saved tool decisions.',
      );
    }),
  ];
}
