// An mcp.json entry about to be written (from the registry or another tool's config), as the trust question shows it.
import type { RawServer } from '../../config/serverDefinition';
import { describeDefinition } from '../../presentation/describeDefinition';
import type { McpJsonEntry } from './serverJsonMapping';

/** What the entry runs, with values masked. */
export function describeEntry(entry: McpJsonEntry): string {
  const raw: RawServer = entry.type === 'stdio' ? { type: 'stdio', command: entry.command, args: entry.args, env: entry.env ?? {} } : { type: entry.type, url: entry.url, headers: entry.headers ?? {} };
  return describeDefinition(raw);
}

/** An imported entry as the parser's model, for describing what it runs. */
export function rawServerOf(entry: Record<string, unknown>): RawServer {
  if (entry.type === 'stdio') return { type: 'stdio', command: String(entry.command), args: (entry.args as string[]) ?? [], env: (entry.env as Record<string, string>) ?? {}, ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}) };
  return { type: entry.type === 'sse' ? 'sse' : 'http', url: String(entry.url), headers: (entry.headers as Record<string, string>) ?? {} };
}
