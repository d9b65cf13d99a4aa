// "A broken file never stops what it defined correctly": merges a new parse with the last good server entries.
import type { ParsedConfig, RawServerEntry } from './serverDefinition';

export function withLastGoodServers(previous: readonly RawServerEntry[] | undefined, parsed: ParsedConfig): RawServerEntry[] {
  if (parsed.syntaxBroken) return [...(previous ?? [])];
  const rejected = new Set(parsed.rejectedServers);
  const kept = (previous ?? []).filter((e) => rejected.has(e.name));
  return [...parsed.servers, ...kept];
}

/** Line and character (both 0-based) of an offset in a text, for diagnostics. */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: end - lineStart };
}
