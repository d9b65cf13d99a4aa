// A form as every runner shows it (the VS Code quick input, the "Call Tool…" form, the terminal): its fields and how
// the user finished it. Built and checked from an elicitation schema by ./formModel.lazy.ts.

export interface FormField {
  name: string;
  title: string;
  description?: string;
  required: boolean;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum';
  default?: unknown;
  options?: { value: string; label: string }[];
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /** The name, title or description looks like it asks for a secret: runners show a warning. */
  secretLike: boolean;
}

export interface FormModel {
  title?: string;
  fields: FormField[];
}

/**
 * How a user finished a form: submitted answers, declined explicitly (`always`: and asked not to be asked again by
 * this server), or dismissed it (Escape, closed).
 */
export type FormOutcome = { action: 'accept'; values: Record<string, unknown> } | { action: 'decline'; always?: boolean } | { action: 'cancel' };
