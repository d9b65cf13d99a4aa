// Wraps a server log so secret values (password inputs, header values) never reach it, whatever prints them.
import type { ServerLog } from '../common/log';

const MASK = '••••••';

export function redact(text: string, secrets: readonly string[]): string {
  // Most servers have no secret: every stderr line would pay for the masking below for nothing.
  if (!secrets.some((s) => s.length >= 3)) return text;
  let out = text;
  // Each secret also as it appears inside JSON (traced traffic), longest first so one containing another goes whole.
  const forms = secrets.filter((s) => s.length >= 3).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  for (const s of [...new Set(forms)].sort((a, b) => b.length - a.length)) {
    out = out.split(s).join(MASK);
  }
  return out;
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
