// The text after `@mcp /prompt`: which prompt to run and the arguments the user already gave.
//
//   server.prompt key=value key="a value with spaces" 'other value' plain
//
// The first word names the prompt (`server.prompt`, or just `prompt` when one server has it). Then `key=value`
// pairs, and bare values that fill the remaining arguments in their declared order. Quotes (single or double) may
// surround any part of a word; a backslash escapes the next character inside double quotes and outside quotes.
import type { Prompt, PromptArgument } from '@modelcontextprotocol/client';

export interface PromptInvocation {
  /** The first word, unquoted: `server.prompt` or `prompt`. Empty when the text was empty. */
  target: string;
  /** `key=value` pairs, in the order given. */
  named: Record<string, string>;
  /** Bare values, in the order given. */
  positional: string[];
}

export type ParseResult = { ok: true; invocation: PromptInvocation } | { ok: false; error: string };

interface Word {
  text: string;
  /** Where an unquoted `=` first appeared in `text`, if any: only that one splits a key from its value. */
  equalsAt: number;
}

function words(input: string): { ok: true; words: Word[] } | { ok: false; error: string } {
  const out: Word[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i])) i++;
    if (i >= input.length) break;
    let text = '';
    let equalsAt = -1;
    while (i < input.length && !/\s/.test(input[i])) {
      const c = input[i];
      if (c === '"' || c === "'") {
        const start = i++;
        while (i < input.length && input[i] !== c) {
          if (c === '"' && input[i] === '\\' && i + 1 < input.length) i++;
          text += input[i++];
        }
        if (i >= input.length) return { ok: false, error: `Unterminated ${c === '"' ? 'double' : 'single'} quote at position ${start + 1}.` };
        i++;
      } else if (c === '\\' && i + 1 < input.length) {
        text += input[i + 1];
        i += 2;
      } else {
        if (c === '=' && equalsAt < 0) equalsAt = text.length;
        text += c;
        i++;
      }
    }
    out.push({ text, equalsAt });
  }
  return { ok: true, words: out };
}

export function parsePromptInvocation(input: string): ParseResult {
  const parsed = words(input);
  if (!parsed.ok) return parsed;
  const [first, ...rest] = parsed.words;
  const invocation: PromptInvocation = { target: first?.text ?? '', named: {}, positional: [] };
  for (const w of rest) {
    if (w.equalsAt < 0) {
      invocation.positional.push(w.text);
      continue;
    }
    const key = w.text.slice(0, w.equalsAt);
    if (!key) return { ok: false, error: `"${w.text}" has no argument name before "=".` };
    if (Object.prototype.hasOwnProperty.call(invocation.named, key)) return { ok: false, error: `Argument "${key}" is given twice.` };
    invocation.named[key] = w.text.slice(w.equalsAt + 1);
  }
  return { ok: true, invocation };
}

export interface ArgumentAssignment {
  values: Record<string, string>;
  /** Required arguments without a value, in declared order: to be asked for. */
  missing: PromptArgument[];
  /** Optional arguments without a value, in declared order. */
  optional: PromptArgument[];
  /** Named arguments the prompt does not declare. */
  unknown: string[];
  /** Bare values left over once every argument had one. */
  extra: string[];
}

/** Matches what the user typed to the prompt's declared arguments. */
export function assignArguments(prompt: Pick<Prompt, 'arguments'>, invocation: Pick<PromptInvocation, 'named' | 'positional'>): ArgumentAssignment {
  const declared = prompt.arguments ?? [];
  const names = new Set(declared.map((a) => a.name));
  const values: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(invocation.named)) {
    if (names.has(k)) values[k] = v;
    else unknown.push(k);
  }
  const positional = [...invocation.positional];
  for (const arg of declared) {
    if (!(arg.name in values) && positional.length) values[arg.name] = positional.shift()!;
  }
  return {
    values,
    missing: declared.filter((a) => a.required && !(a.name in values)),
    optional: declared.filter((a) => !a.required && !(a.name in values)),
    unknown,
    extra: positional,
  };
}

/** Quotes a value for the grammar above when it needs it (so a command can be written back). */
export function quoteArgument(value: string): string {
  return /^[^\s"'\\=]+$/.test(value) ? value : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
