// Questions more than one feature puts to the user. The VS Code layer's dialogs (src/vscode/dialogs.ts) ask them, and
// tests answer them in the user's place.

/** Allow this once, allow always (for the scope the question names), or deny. */
export type ConsentAnswer = 'once' | 'always' | 'deny';

export interface TextQuestion {
  title: string;
  prompt: string;
  password: boolean;
  value?: string;
}
