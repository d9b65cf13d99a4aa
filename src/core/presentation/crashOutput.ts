// Why a server process ended, read from the last lines it wrote to stderr: the error line and its code, not the last
// line. Node prints an error's properties after it (the output then ends in `}` and "Node.js v20…"), Python ends a
// traceback with the exception's line, other runtimes say "panic:" or "fatal error:". Server output is untrusted:
// the input is capped and every pattern is anchored with bounded repetition (linear).

/** How many of a process's last stderr lines are kept to explain its end. */
export const KEPT_OUTPUT_LINES = 40;
/** The longest kept line, in characters (a longer one is cut). */
export const KEPT_OUTPUT_LINE_CHARS = 500;

/**
 * An exception's line, not indented: "Error: …", "TypeError: …", "Error [ERR_MODULE_NOT_FOUND]: …",
 * "ModuleNotFoundError: …", "Uncaught Error: …", 'Exception in thread "main" java.lang.IllegalStateException: …'.
 */
const EXCEPTION_LINE = /^(?:Uncaught |Exception in thread "[^"]{0,100}" )?[\w$.]{0,100}(?:Error|Exception)(?: \[[\w.-]{1,60}\])?:\s/;
/** Other runtimes' last words: Go's "panic:" and "fatal error:", "error:" of many command-line tools. */
const FAILURE_LINE = /^(?:panic|fatal error|fatal|error|FATAL|ERROR)(?::\s|\s)/;
/** Node's error code, printed among the error's properties: `  code: 'ERR_DLOPEN_FAILED',`. */
const CODE_LINE = /^\s{1,8}code: '([\w.-]{1,60})',?$/;
/** Lines that say nothing on their own: punctuation of a printed object, a caret, Node's version footer, a stack frame. */
const EMPTY_LINE = /^[\s{}()[\],;^~]*$/;
const FOOTER_LINE = /^Node\.js v\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const FRAME_LINE = /^\s{1,12}(?:at |File ")/;

/**
 * The lines that explain a crash, out of a process's last stderr lines (oldest first): the last exception line with
 * its code (when Node printed one the line does not already name), else the last line that says something.
 */
export function meaningfulOutput(output: readonly string[]): string[] {
  const lines = output.slice(-KEPT_OUTPUT_LINES).map((l) => l.slice(0, KEPT_OUTPUT_LINE_CHARS).trimEnd());
  let found = -1;
  for (let i = lines.length - 1; i >= 0 && found < 0; i--) if (EXCEPTION_LINE.test(lines[i]) || FAILURE_LINE.test(lines[i])) found = i;
  if (found >= 0) {
    const picked = [lines[found]];
    for (let i = found + 1; i < lines.length; i++) {
      const code = CODE_LINE.exec(lines[i])?.[1];
      if (!code) continue;
      if (!lines[found].includes(code)) picked.push(`code: '${code}'`);
      break;
    }
    return picked;
  }
  for (let i = lines.length - 1; i >= 0; i--) if (!EMPTY_LINE.test(lines[i]) && !FOOTER_LINE.test(lines[i]) && !FRAME_LINE.test(lines[i])) return [lines[i].trim()];
  return [];
}

/** The crash in one phrase for a message ("Error: … (code: 'X')"), or undefined when the output says nothing. */
export function explainCrash(output: readonly string[]): string | undefined {
  const [line, code] = meaningfulOutput(output);
  return line === undefined ? undefined : code ? `${line} (${code})` : line;
}
