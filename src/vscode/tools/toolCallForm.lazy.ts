// The call form of "MCP: Call Tool…" (loaded on demand): the tool picked, then its arguments from a form
// built from the input schema, or typed as JSON when the schema is beyond a flat form. The review step is the consent.
import { offersFeatures } from '../../core/host/serverInfo';
import vscode = require('vscode');
import type { SessionPort } from '../../core/host/serverSession';
import type { ToolChoice } from './toolCommands';
import { toolLabel } from '../../core/presentation/serverPresentation';
import { firstLine, labelText } from '../../core/presentation/serverText';
import { formFromSchema } from '../../core/features/elicitation/formModel.lazy';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { runQuickInputForm } from '../elicitation/quickInputForm.lazy';

export async function pickTool(sessions: SessionPort): Promise<ToolChoice | undefined> {
  const choices = sessions
    .servers()
    .filter((s) => offersFeatures(s.state))
    .flatMap((server) => server.features.tools.map((tool) => ({ server, tool })));
  if (!choices.length) {
    void vscode.window.showInformationMessage('No running MCP server offers tools.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({
      label: labelText(toolLabel(c.tool)),
      description: labelText(`${c.server.name} · ${c.tool.name}`),
      detail: c.tool.description ? labelText(firstLine(c.tool.description)) : undefined,
      choice: c,
    })),
    { placeHolder: 'Call which MCP tool?', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.choice;
}

/** A JSON object typed by hand (for schemas a form cannot express); asks again while it is not one. */
async function argumentsAsJson(choice: ToolChoice, dialogs: HostDialogs, why: string, initial?: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  let value = initial ? JSON.stringify(initial) : '{}';
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

/** The call form: one step per argument, then a review whose first item runs the call. The review is the consent. */
export async function collectToolArguments(
  choice: ToolChoice,
  dialogs: HostDialogs,
  initialValues?: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const form = formFromSchema(choice.tool.inputSchema);
  if (!form.ok) return argumentsAsJson(choice, dialogs, form.error, initialValues);
  const { tool, server } = choice;
  const annotations = tool.annotations ?? {};
  const kind = annotations.readOnlyHint === true ? 'read-only' : annotations.destructiveHint === false ? undefined : 'may modify or delete data';
  const outcome = await runQuickInputForm(form.form, {
    title: `Call ${tool.name === toolLabel(tool) ? `"${tool.name}"` : `"${toolLabel(tool)}" (${tool.name})`} · ${server.name}`,
    serverName: server.name,
    dialogs,
    review: true,
    initialValues,
    run: {
      label: `Run ${tool.name}`,
      description: `call the tool of "${server.name}" with these arguments`,
      detail: [kind && `The server says this tool is ${kind}.`, tool.description && firstLine(tool.description)].filter(Boolean).join(' '),
    },
  });
  return outcome.action === 'accept' ? outcome.values : undefined;
}
