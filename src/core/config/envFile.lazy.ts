// Reads the `envFile` of a stdio server: the dotenv format, as VS Code and the dotenv package read it.
import * as fs from 'fs';

const ASSIGNMENT = /^\s*(?:export\s+)?([\w.-]+)\s*=/;
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

export function parseEnvFile(text: string): Record<string, string> {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const result: Record<string, string> = {};
  let pos = 0;
  while (pos < src.length) {
    const lineEnd = endOfLine(src, pos);
    const line = src.slice(pos, lineEnd);
    const m = ASSIGNMENT.exec(line);
    // Blank lines, comments and lines that assign nothing are skipped, as dotenv does.
    if (!m) {
      pos = lineEnd + 1;
      continue;
    }
    const key = m[1];
    const rest = line.slice(m[0].length);
    const valueStart = pos + m[0].length + (rest.length - rest.trimStart().length);
    const quote = src[valueStart];
    const close = quote === '"' || quote === "'" || quote === '`' ? closingQuote(src, valueStart + 1, quote) : -1;
    if (close >= 0) {
      // Quoted values may span lines; whatever follows the closing quote on its line is a comment.
      const body = src.slice(valueStart + 1, close);
      result[key] = quote === '"' ? body.replace(/\\(.)/g, (all, c: string) => ESCAPES[c] ?? all) : body;
      pos = endOfLine(src, close) + 1;
      continue;
    }
    // Only a `#` after whitespace starts a comment, so values such as passwords and URL fragments keep theirs.
    result[key] = rest.replace(/(^|\s)#.*$/, '').trim();
    pos = lineEnd + 1;
  }
  return result;
}

function endOfLine(src: string, from: number): number {
  const i = src.indexOf('\n', from);
  return i < 0 ? src.length : i;
}

function closingQuote(src: string, from: number, quote: string): number {
  for (let i = from; i < src.length; i++) {
    if (quote === '"' && src[i] === '\\') i++;
    else if (src[i] === quote) return i;
  }
  return -1;
}

/** The largest env file read: anything bigger is not a list of variables. */
export const MAX_ENV_FILE_BYTES = 1024 * 1024;

/** An env file that cannot be used, with a message that says why. */
export class EnvFileError extends Error {}

/**
 * Reads and parses an env file, refusing what is not a regular file (a FIFO would block, /dev/zero never ends) and
 * anything over the cap. Opened without blocking, and checked again once open, so a file swapped meanwhile cannot hang us.
 */
export async function readEnvFile(path: string, maxBytes = MAX_ENV_FILE_BYTES): Promise<{ text: string; variables: Record<string, string> }> {
  const fail = (why: string) => new EnvFileError(`Cannot use the envFile ${path}: ${why}`);
  const check = (stat: fs.Stats) => {
    if (!stat.isFile()) throw fail('it is not a regular file.');
    if (stat.size > maxBytes) throw fail(`it is larger than ${Math.round(maxBytes / 1024)} KB.`);
  };
  let handle: fs.promises.FileHandle;
  try {
    check(await fs.promises.stat(path));
    handle = await fs.promises.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw e instanceof EnvFileError ? e : fail((e as Error).message);
  }
  try {
    check(await handle.stat());
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw fail(`it is larger than ${Math.round(maxBytes / 1024)} KB.`);
    }
    const text = buffer.subarray(0, length).toString('utf8');
    return { text, variables: parseEnvFile(text) };
  } finally {
    await handle.close();
  }
}
