// What sampling asks the user, and the dialogs that ask it (the VS Code layer's HostDialogs, the terminal's).
import type { StandingConsentAnswer, TextQuestion } from '../userQuestions';

export interface SamplingQuestion {
  serverName: string;
  /** The model that would answer, by the name the user knows it by. */
  modelName: string;
  /** Everything the server asks for, readable: system prompt, messages, maxTokens, model preferences. */
  detail: string;
  /** Set when the request arrives while a tool of that server runs: a sentence saying which call, and who started it. */
  chatContext?: string;
}

/**
 * The one question a sampling request asks: send it once, always for this server, edit its text first ('edit': the
 * text is offered for editing, then sent), or not ('deny'; 'never' refuses this server for good, where offered).
 */
export type SamplingAnswer = StandingConsentAnswer | 'edit';

export interface SamplingResponseQuestion {
  serverName: string;
  modelName: string;
  responseText: string;
}

/** 'approve-always': approve, and stop reviewing this server's responses. */
export type SamplingReviewAnswer = 'approve' | 'approve-always' | 'edit' | 'reject';

/** The dialogs sampling needs (the VS Code layer's HostDialogs has this shape). */
export interface SamplingDialogs {
  confirmSampling(q: SamplingQuestion): Promise<SamplingAnswer | undefined>;
  /** Asked only when the user turned on reviewing answers (setting mcpHost.sampling.reviewAnswers). */
  reviewSamplingResponse(q: SamplingResponseQuestion): Promise<SamplingReviewAnswer | undefined>;
  inputText(q: TextQuestion): Promise<string | undefined>;
}
