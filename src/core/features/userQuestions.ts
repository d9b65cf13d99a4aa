// Questions more than one feature puts to the user. The VS Code layer's dialogs (src/vscode/dialogs/dialogRouter.ts) ask them, and
// tests answer them in the user's place.

/** Allow this once, allow always (for the scope the question names), or deny. */
export type ConsentAnswer = 'once' | 'always' | 'deny';

/** Consent that can also be refused for good ("always deny"), remembered like an "always allow". */
export type StandingConsentAnswer = ConsentAnswer | 'never';

export interface TextQuestion {
  title: string;
  prompt: string;
  password: boolean;
  value?: string;
}
