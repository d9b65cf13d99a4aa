// A command written as one line (Claude Code's `headersHelper`), split into a program and its arguments the way a
// POSIX shell splits words, without being a shell: quotes and backslashes are honoured; a leading `~` is the home
// folder; `${…}` is a variable of the file. Anything only a shell could do (pipes, redirections, `;`, `&&`, `$VAR`,
// `$(…)`, backquotes, globs) is refused with the character named, so nothing runs other than what the words say.
// One pass over the text, no regular expression: linear on any input.

export type SplitCommand = { ok: true; argv: string[] } | { ok: false; message: string };

/** Characters with a meaning only a shell gives them, outside quotes. */
const SHELL_ONLY = new Set(['|', '&', ';', '<', '>', '(', ')', '`', '*', '?', '[', ']', '{', '}', '!', '#']);
const SPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * `homeReference`: what a leading `~` becomes (the file's own variable for the home folder), so the question shows it
 * as a reference and the file's variable resolution gives its value.
 */
export function splitCommandLine(text: string, homeReference: string): SplitCommand {
  const argv: string[] = [];
  let word: string | undefined;
  const refuse = (what: string): SplitCommand => ({
    ok: false,
    message: `${what} needs a shell, and the command is run without one: put it in a script and name the script.`,
  });
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (SPACE.has(c)) {
      if (word !== undefined) argv.push(word);
      word = undefined;
      i++;
      continue;
    }
    if (word === undefined && c === '~' && (i + 1 === text.length || text[i + 1] === '/' || SPACE.has(text[i + 1]))) {
      word = homeReference;
      i++;
      continue;
    }
    word ??= '';
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return { ok: false, message: 'A quote (\') is not closed.' };
      word += text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= text.length) return { ok: false, message: 'A quote (") is not closed.' };
        const q = text[i];
        if (q === '"') break;
        if (q === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) {
          word += text[i + 1];
          i += 2;
          continue;
        }
        if (q === '`') return refuse('A backquote');
        if (q === '$') {
          const variable = variableAt(text, i);
          if (variable === undefined) return refuse(`"${text.slice(i, i + 2)}"`);
          word += variable;
          i += variable.length;
          continue;
        }
        word += q;
        i++;
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return { ok: false, message: 'The command ends with a backslash.' };
      word += text[i + 1];
      i += 2;
    } else if (c === '$') {
      const variable = variableAt(text, i);
      if (variable === undefined) return refuse(`"${text.slice(i, i + 2)}"`);
      word += variable;
      i += variable.length;
    } else if (SHELL_ONLY.has(c)) {
      return refuse(`"${c}"`);
    } else {
      word += c;
      i++;
    }
  }
  if (word !== undefined) argv.push(word);
  if (!argv.length) return { ok: false, message: 'The command is empty.' };
  return { ok: true, argv };
}

/** `${…}` at `at`, up to its closing brace (no nesting, as the file's variables have none); else undefined. */
function variableAt(text: string, at: number): string | undefined {
  if (text[at + 1] !== '{') return undefined;
  const end = text.indexOf('}', at + 2);
  return end < 0 ? undefined : text.slice(at, end + 1);
}
