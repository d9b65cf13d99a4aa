// What sampling asks the user, and the dialogs that ask it (the VS Code layer's HostDialogs, the terminal's).
import type { StandingConsentAnswer, TextQuestion } from '../userQuestions';
import { plainText } from '../../presentation/serverText';
import type { RenderedQuestion } from '../../presentation/trustQuestionText';

export interface SamplingQuestion {
  serverName: string;
  /** Everything the server asks for, readable: system prompt, messages, maxTokens, model preferences. */
  detail: string;
  /** Set when the request arrives while a tool of that server runs in chat: which chat request it belongs to. */
  chatContext?: string;
}

/** The consent question as the dialog shows it (folded like the trust question when long: see foldedText). */
export function samplingQuestionText(q: SamplingQuestion): RenderedQuestion<StandingConsentAnswer> {
  return {
    message: `MCP server "${plainText(q.serverName)}" asks to use your language model${q.chatContext ? ` (${plainText(q.chatContext)})` : ''}`,
    detail: q.detail,
    buttons: [
      { label: 'Allow Once', answer: 'once' },
      { label: 'Always Allow This Server', answer: 'always' },
      { label: 'Deny', answer: 'deny' },
      { label: 'Always Deny This Server', answer: 'never' },
    ],
  };
}

export interface SamplingResponseQuestion {
  serverName: string;
  modelName: string;
  responseText: string;
}

/** 'approve-always': approve, and stop reviewing this server's responses. */
export type SamplingReviewAnswer = 'approve' | 'approve-always' | 'edit' | 'reject';

/** The dialogs sampling needs (the VS Code layer's HostDialogs has this shape). */
export interface SamplingDialogs {
  confirmSampling(q: SamplingQuestion): Promise<StandingConsentAnswer | undefined>;
  reviewSamplingResponse(q: SamplingResponseQuestion): Promise<SamplingReviewAnswer | undefined>;
  inputText(q: TextQuestion): Promise<string | undefined>;
}
