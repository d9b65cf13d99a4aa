// Reads the `envFile` of a stdio server: the dotenv format, as VS Code and the dotenv package read it.

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
