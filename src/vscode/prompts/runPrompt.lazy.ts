// "MCP: Run Prompt…": expands a prompt without any language model, into a read-only Markdown document, with actions to
// copy the messages or send them to chat. Users without a chat model still get the prompt's text. Loaded on demand:
// ./runPromptCommand registers the command on activation, and this loads when it runs.
import vscode = require('vscode');
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { quoteArgument } from '../../core/features/prompts/promptArguments';
import { listPrompts, promptCommandName, type PromptEntry } from '../../core/features/prompts/promptCatalog';
import { getPrompt } from '../../core/features/prompts/promptRequests.lazy';
import type { SessionPort } from '../../core/host/serverSession';
import { escapeMarkdown, inlineCode, markdownLine, plainText } from '../../core/presentation/serverText';
import { modelMessagesToText, promptToModelMessages } from '../../core/features/chat/contentConversion.lazy';
import { promptToMarkdown } from '../../core/features/chat/contentMarkdown.lazy';
import { promptPicker } from './promptArgumentPicker.lazy';
import type { RunPrompt } from './runPromptCommand';
import { abortOnCancel } from '../cancellation';
import { walkthroughStepDone } from '../walkthrough/walkthroughProgress';

/** The prompt a command was invoked on, as `(serverId, promptName)`. */
function entryFrom(sessions: SessionPort, serverId: string | undefined, name: string | undefined): PromptEntry | undefined {
  if (!serverId || !name) return undefined;
  return listPrompts(sessions.servers()).find((e) => e.serverId === serverId && e.prompt.name === name);
}

/**
 * The prompt (both undefined: the user picks one), and values; `invokedOn`: whether the command was given a prompt at
 * all. Arguments without a value are asked for. Resolves with the opened document, or undefined when cancelled.
 */
export const runPrompt: RunPrompt = async (deps, invokedOn, serverId, promptName, given) => {
  const entry = entryFrom(deps.sessions, serverId, promptName) ?? (!invokedOn ? await promptPicker(deps.sessions).pickPrompt() : undefined);
  if (!entry) {
    if (invokedOn) void vscode.window.showWarningMessage('That MCP prompt is not available: is its server running?');
    return undefined;
  }
  const declared = entry.prompt.arguments ?? [];
  // Values given by the caller stand for a complete answer: only required arguments still missing are asked.
  const ask = given
    ? declared.filter((a) => a.required && !(a.name in given))
    : [...declared.filter((a) => a.required), ...declared.filter((a) => !a.required)];
  const values = ask.length ? await promptPicker(deps.sessions).collect({ entry, values: { ...given }, ask }) : { ...given };
  if (!values) return undefined;
  const abort = new AbortController();
  let result: GetPromptResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Expanding ${plainText(`${entry.serverName}.${entry.prompt.name}`)}…`, cancellable: true },
      (_progress, token) => {
        abortOnCancel(token, abort);
        return getPrompt(deps.sessions, entry.serverId, entry.prompt.name, values, abort.signal);
      },
    );
  } catch (e) {
    if (!abort.signal.aborted) void vscode.window.showErrorMessage(`Could not expand the prompt "${plainText(entry.prompt.name)}": ${plainText(String((e as Error)?.message ?? e))}`);
    return undefined;
  }
  walkthroughStepDone('runPrompt');
  const messages = await promptToModelMessages(result, { images: false, resolveLink: (l) => deps.resources.read(entry.serverId, l.uri) });
  const text = modelMessagesToText(messages);
  const command = `@mcp /prompt ${[promptCommandName(entry), ...Object.entries(values).map(([k, v]) => `${k}=${quoteArgument(v)}`)].join(' ')}`;
  const argumentLines = Object.entries(values).map(([k, v]) => `- ${inlineCode(k)}: ${escapeMarkdown(v)}`);
  const content = [
    `# ${markdownLine(entry.prompt.title ?? entry.prompt.name)} (${markdownLine(entry.serverName)})`,
    argumentLines.length ? `Arguments:\n\n${argumentLines.join('\n')}` : '',
    `In chat: ${inlineCode(command)}`,
    '---',
    promptToMarkdown(result, { linkTarget: (l) => deps.resources.documentUri(entry.serverId, l).toString() }),
  ]
    .filter(Boolean)
    .join('\n\n');
  const uri = deps.documents.add(`${entry.serverName}.${entry.prompt.name}`, `${content}\n`);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  void offerActions(entry, text);
  return { document, text };
};


async function offerActions(entry: PromptEntry, text: string): Promise<void> {
  const copy = 'Copy Messages';
  const send = 'Send to Chat';
  const action = await vscode.window.showInformationMessage(
    `Expanded prompt "${plainText(entry.prompt.title ?? entry.prompt.name)}" of ${plainText(entry.serverName)}.`,
    copy,
    send,
  );
  if (action === copy) {
    await vscode.env.clipboard.writeText(text);
  } else if (action === send) {
    // A partial query: the text lands in the chat input for the user to review and send to any participant.
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
  }
}
