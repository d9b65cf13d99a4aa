// The native modal dialogs (./dialogRouter's native dialogs forward here): whether to run a tool, to let a server use
// a language model and send its answer back, to open a page, to sign in, to put a view's message in chat, and the
// trust question. Loaded on demand: only a running server, or a start's launch plan, asks them.
import vscode = require('vscode');
import { plainText } from '../../core/presentation/serverText';
import { samplingQuestionText, samplingReviewText } from '../../core/features/sampling/samplingQuestionText';
import { resetTrustQuestionText } from '../../core/presentation/permissionRows';
import type { ModalDialogs } from './dialogRouter';
import { askFolded, trustDialogs } from '../trust/trustDialogs.lazy';

async function modal<T extends string>(message: string, detail: string, ...choices: T[]): Promise<T | undefined> {
  return vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices);
}

export const modalDialogs: ModalDialogs = {
  ...trustDialogs,
  async confirmToolCall(q) {
    const kind = q.destructive ? ' (may modify or delete data)' : q.readOnly ? ' (read-only)' : '';
    // The name is what runs; the title is the server's own wording, so it only comes second.
    const title = q.toolTitle && q.toolTitle !== q.toolName ? `The server calls it "${plainText(q.toolTitle)}".\n\n` : '';
    const given = q.argumentsFromCaller ? 'These arguments came with the command that started the call (a link, say), not from you: check them.\n\n' : '';
    const requested = q.requestedBy ? `Asked by ${plainText(q.requestedBy)}.\n\n` : '';
    // A program through the gateway is named (its own word for itself), and "always" holds for it alone.
    const question = q.caller
      ? `${plainText(q.caller)} (through the gateway) wants to run ${plainText(q.serverName)}.${plainText(q.toolName)}${kind}. Allow it?`
      : `Run the tool "${plainText(q.toolName)}" of MCP server "${plainText(q.serverName)}"${kind}?`;
    const answer = await modal(question, `${requested}${title}${given}Arguments:\n${q.argumentsJson}`, 'Allow Once', q.caller ? 'Always Allow for This Client' : 'Always Allow in This Workspace', 'Deny');
    return answer === 'Allow Once' ? 'once' : answer === 'Deny' ? 'deny' : answer ? 'always' : undefined;
  },
  // The last button ("Don't Send") is also what Escape gives: no unexplained "Cancel" beside it.
  confirmSampling: (q) => askFolded(samplingQuestionText(q), true),
  reviewSamplingResponse: (q) => askFolded(samplingReviewText(q), true),
  confirmResetTrust: (q) => askFolded(resetTrustQuestionText(q), true),
  async confirmOpenUrl(q) {
    const answer = await modal(
      `MCP server "${plainText(q.serverName)}" asks you to open a page on ${plainText(q.domain)}`,
      `${plainText(q.message)}\n\n${q.url}\n\nOnly continue if you trust ${plainText(q.domain)}.`,
      'Open',
      'Decline',
    );
    return answer === 'Open' ? true : answer === 'Decline' ? false : undefined;
  },
  async confirmSignIn(q) {
    const answer = await modal(
      `MCP server "${plainText(q.serverName)}" wants you to sign in`,
      `Your browser will open the sign-in page of ${plainText(q.authorizationServer)}.`,
      'Sign In',
      'Cancel',
    );
    return answer === 'Sign In' ? true : answer === 'Cancel' ? false : undefined;
  },
  async confirmCommandValue(q) {
    const answer = await modal(
      `MCP server "${plainText(q.serverName)}" wants a value from the VS Code command ${plainText(q.command)}`,
      `${plainText(q.source)} asks VS Code to run the command ${plainText(q.command)}${q.args ? ` with the arguments ${plainText(q.args)}` : ''} before the server starts, and gives the server what it returns.\n\nA command can do anything VS Code or an extension can: run it only if you expected this command here.`,
      'Run Command',
      'Do Not Run',
    );
    return answer === 'Run Command' ? true : answer === 'Do Not Run' ? false : undefined;
  },
  async confirmSandbox(q) {
    if (q.kind === 'unconfined') {
      const answer = await modal(
        `MCP server "${plainText(q.serverName)}" is set to run confined, and this machine cannot confine it`,
        `${q.reason}\n\nUnconfined, it runs with all your rights: it can read and write your files and reach any host. It is not started unless you choose to.`,
        'Run Unconfined',
        'Do Not Run',
      );
      return answer === 'Run Unconfined' ? true : answer === 'Do Not Run' ? false : undefined;
    }
    // A notification, not a modal: the server keeps running; the rule is added only if the user asks.
    const allow = 'Allow and Restart';
    const message = `MCP server "${plainText(q.serverName)}" is confined: its sandbox denied ${plainText(q.denied)}.${q.rule ? ` Allowing it adds ${plainText(q.rule)} to ${q.configPath}.` : q.refused ? ` No rule is offered: ${plainText(q.refused)}.` : ''}`;
    return (await (q.rule ? vscode.window.showWarningMessage(message, allow) : vscode.window.showWarningMessage(message))) === allow;
  },
  async confirmViewMessage(q) {
    const answer = await modal(
      `The view of tool "${plainText(q.toolName)}" (MCP server "${plainText(q.serverName)}") wants to send this message to chat`,
      `${q.text}\n\nIt goes into the chat input, where you can edit it before you send it.`,
      'Put in Chat',
      'Cancel',
    );
    return answer === 'Put in Chat' ? true : answer === 'Cancel' ? false : undefined;
  },
};
