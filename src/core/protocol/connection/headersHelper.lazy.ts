// Runs a remote server's `headersHelper` (Claude Code's key) as its plan says: the planned file, no shell, in the
// planned folder, capped in time and output; what it prints must be a JSON object of header names and values. Its
// environment names the server as Claude Code's does (CLAUDE_CODE_MCP_SERVER_NAME, CLAUDE_CODE_MCP_SERVER_URL), so
// helpers written for Claude Code work unchanged.
import { execFile } from 'child_process';
import type { PlannedHeadersHelper } from '../../config/launchPlan';

/** Claude Code gives a helper ten seconds. */
const HELPER_TIMEOUT_MS = 10_000;
/** Headers, not a payload. */
const MAX_OUTPUT_BYTES = 64 * 1024;
const MAX_HEADERS = 64;
/** RFC 9110's token characters: a header name the fetch would not refuse or misread. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const failed = (why: string) => new Error(`The "headersHelper" command failed: ${why}. The server was not contacted.`);

/**
 * The headers the helper prints. Its error output is not repeated: it may hold what the header should have been.
 */
export function runHeadersHelper(helper: PlannedHeadersHelper, server: { name: string; url: string }, environment: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const env = { ...environment, CLAUDE_CODE_MCP_SERVER_NAME: server.name, CLAUDE_CODE_MCP_SERVER_URL: server.url };
  return new Promise((resolve, reject) => {
    execFile(helper.executable, [...helper.args], { cwd: helper.cwd, env, timeout: HELPER_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true, encoding: 'utf8' }, (error, stdout) => {
      if (error) {
        const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(failed(`it printed more than ${MAX_OUTPUT_BYTES / 1024} KB`));
        return reject(failed(e.killed ? `it did not finish within ${HELPER_TIMEOUT_MS / 1000} s` : typeof e.code === 'number' ? `it exited with code ${e.code}` : String(e.code ?? e.message)));
      }
      try {
        resolve(headersFrom(stdout));
      } catch (e) {
        reject(failed((e as Error).message));
      }
    });
  });
}

/** A JSON object of string values, each a header name and a value a request can carry. Names only in errors. */
export function headersFrom(output: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    throw new Error('it did not print a JSON object (of header names and values)');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it did not print a JSON object (of header names and values)');
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw new Error(`it printed ${entries.length} headers (at most ${MAX_HEADERS})`);
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    const shownName = JSON.stringify(name.slice(0, 64));
    if (!HEADER_NAME.test(name)) throw new Error(`${shownName} is not a header name`);
    if (typeof value !== 'string') throw new Error(`the value of ${shownName} is not a string`);
    if (/[\r\n\0]/.test(value)) throw new Error(`the value of ${shownName} holds a line break`);
    headers[name] = value;
  }
  return headers;
}
