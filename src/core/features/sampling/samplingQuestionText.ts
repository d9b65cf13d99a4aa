// The sampling questions as the user reads them: message, detail and buttons, each button saying in words what it
// does (the detail says it again, line by line). The native dialogs (src/vscode/dialogs/modalDialogs.lazy.ts) show
// exactly this; tests read it from here. The last button is the one Escape and closing the dialog give.
import type { SamplingAnswer, SamplingQuestion, SamplingResponseQuestion, SamplingReviewAnswer } from './samplingQuestions';
import { plainText } from '../../presentation/serverText';
import type { RenderedQuestion } from '../../presentation/trustQuestionText';

export const SEND_ONCE = 'Send Once';
export const ALWAYS_SEND = 'Always Send for This Server';
export const EDIT_FIRST = 'Edit, Then Send…';
export const DONT_SEND = "Don't Send";

/** One request, one question: whether its text goes to the model (and the answer back to the server). */
export function samplingQuestionText(q: SamplingQuestion): RenderedQuestion<SamplingAnswer> {
  const server = `"${plainText(q.serverName)}"`;
  const model = plainText(q.modelName);
  return {
    message: `The MCP server ${server} wants to ask ${model} something`,
    detail: [
      `${q.chatContext ? `${plainText(q.chatContext)} ` : ''}Nothing is sent to ${model} unless you choose to; its answer then goes back to the server.`,
      [
        `${SEND_ONCE}: sends this request now.`,
        `${ALWAYS_SEND}: sends this one, and this server's next requests without asking (MCP Host: Manage Permissions… undoes it).`,
        `${EDIT_FIRST.replace('…', '')}: lets you change the text before it is sent.`,
        `${DONT_SEND}: nothing is sent; the server is told that you declined.`,
      ].join('\n'),
      `The request:\n${q.detail}`,
    ].join('\n\n'),
    buttons: [
      { label: SEND_ONCE, answer: 'once' },
      { label: ALWAYS_SEND, answer: 'always' },
      { label: EDIT_FIRST, answer: 'edit' },
      { label: DONT_SEND, answer: 'deny' },
    ],
  };
}

/** Only when the user asked to check answers (setting mcpHost.sampling.reviewAnswers). */
export function samplingReviewText(q: SamplingResponseQuestion): RenderedQuestion<SamplingReviewAnswer> {
  const server = `"${plainText(q.serverName)}"`;
  return {
    message: `Send ${plainText(q.modelName)}'s answer back to the MCP server ${server}?`,
    detail: [
      `You asked to check answers before servers get them (setting mcpHost.sampling.reviewAnswers).`,
      ['Send Answer: the server gets the answer below.', 'Edit Answer…: lets you change it first.', "Don't Send Answer: the server is told that you declined."].join('\n'),
      `The answer:\n${q.responseText}`,
    ].join('\n\n'),
    buttons: [
      { label: 'Send Answer', answer: 'approve' },
      { label: 'Edit Answer…', answer: 'edit' },
      { label: "Don't Send Answer", answer: 'reject' },
    ],
  };
}
