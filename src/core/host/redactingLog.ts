// Wraps a server log so secret values (password inputs, header values) never reach it, whatever prints them.
import type { ServerLog } from '../common/log';

const MASK = '••••••';

/** JSON's short escapes: the character, and the letter after the backslash. */
const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const regexLiteral = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const anyCaseHex = (hex: string) => hex.replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);

/**
 * A secret in every form it can take in text: as itself, and with any of its characters JSON-escaped (`\u00f6`,
 * `\u00F6`, `\/`, `\n`, surrogate pairs as two `\u` escapes), up to three levels of JSON inside JSON (the backslash doubled, at most 8).
 * Each character is one group of fixed alternatives: matching is linear in the text for a given secret.
 */
function secretPattern(secret: string): string {
  let pattern = '';
  for (let i = 0; i < secret.length; i++) {
    const unit = secret[i];
    const alternatives = [regexLiteral(unit), `\\\\{1,8}u${anyCaseHex(secret.charCodeAt(i).toString(16).padStart(4, '0'))}`];
    const short = SHORT_ESCAPES[unit];
    if (short !== undefined) alternatives.push(`\\\\{1,8}${regexLiteral(short)}`);
    pattern += `(?:${alternatives.join('|')})`;
  }
  return pattern;
}

export function redact(text: string, secrets: readonly string[]): string {
  // Most servers have no secret: every stderr line would pay for the masking below for nothing.
  const real = [...new Set(secrets.filter((s) => s.length >= 3))];
  if (!real.length) return text;
  // Longest first, so a secret containing another goes whole.
  const pattern = new RegExp(real.sort((a, b) => b.length - a.length).map(secretPattern).join('|'), 'g');
  return text.replace(pattern, MASK);
}

export function redactingLog(log: ServerLog, secrets: () => readonly string[]): ServerLog {
  const wrap = (fn: (m: string) => void) => (m: string) => fn(redact(m, secrets()));
  return {
    trace: wrap((m) => log.trace(m)),
    debug: wrap((m) => log.debug(m)),
    info: wrap((m) => log.info(m)),
    warn: wrap((m) => log.warn(m)),
    error: wrap((m) => log.error(m)),
    get logLevel() {
      return log.logLevel;
    },
    onDidChangeLogLevel: log.onDidChangeLogLevel,
  };
}
