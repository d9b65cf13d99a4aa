// Runs a remote server's `headersHelper` (Claude Code's key) as its plan says: the planned file, no shell, in the
// planned folder, capped in time and output; what it prints must be a JSON object of header names and values. Its
// environment names the server as Claude Code's does (CLAUDE_CODE_MCP_SERVER_NAME, CLAUDE_CODE_MCP_SERVER_URL), so
// helpers written for Claude Code work unchanged.
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import { promises as fs } from 'fs';
import type { PlannedHeadersHelper } from '../../config/launchPlan';

/** Claude Code gives a helper ten seconds. */
const HELPER_TIMEOUT_MS = 10_000;
/** Headers, not a payload. */
const MAX_OUTPUT_BYTES = 64 * 1024;
const MAX_HEADERS = 64;
/** RFC 9110's token characters: a header name the fetch would not refuse or misread. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a field value may hold (RFC 9110: tab, visible ASCII, space, obs-text): anything else a request cannot carry. */
const NOT_IN_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

const failed = (why: string) => new Error(`The "headersHelper" command failed: ${why}. The server was not contacted.`);

/** A file the question showed (the helper, a script it is given) changed since: it is not run. */
async function checkUnchanged(helper: PlannedHeadersHelper): Promise<void> {
  for (const file of helper.files ?? []) {
    const now = await fs.readFile(file.path).then((bytes) => createHash('sha256').update(bytes).digest('hex'), () => undefined);
    if (now !== file.sha256) throw new Error(`The "headersHelper" file ${file.path} changed since you trusted it: it was not run. Start the server again to be asked about it as it is now.`);
  }
}

/** Ends the helper and everything it started (its own process group; on Windows, the helper itself). */
function endAll(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * The headers the helper prints. It runs in a process group of its own, which is ended when it is done, at its time
 * limit, or when the start is cancelled: nothing it started outlives it. Its error output is never repeated, nor its
 * command line: either may hold what the header should have been.
 */
export async function runHeadersHelper(helper: PlannedHeadersHelper, server: { name: string; url: string }, signal?: AbortSignal, environment: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  await checkUnchanged(helper);
  const env = { ...environment, CLAUDE_CODE_MCP_SERVER_NAME: server.name, CLAUDE_CODE_MCP_SERVER_URL: server.url };
  const output = await new Promise<string>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
    const child = spawn(helper.executable, [...helper.args], { cwd: helper.cwd, env, stdio: ['ignore', 'pipe', 'ignore'], detached: process.platform !== 'win32', windowsHide: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      endAll(child.pid);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(() => finish(failed(`it did not finish within ${HELPER_TIMEOUT_MS / 1000} s`)), HELPER_TIMEOUT_MS);
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) return finish(failed(`it printed more than ${MAX_OUTPUT_BYTES / 1024} KB`));
      chunks.push(chunk);
    });
    child.on('error', (e: NodeJS.ErrnoException) => finish(failed(e.code === 'ENOENT' ? `its program ${helper.executable} was not found` : e.code === 'EACCES' ? `its program ${helper.executable} may not be run (EACCES)` : `it could not be started (${e.code ?? 'error'})`)));
    // A process it left behind may hold its output open: once it has exited, what it started is ended too.
    child.on('exit', () => setTimeout(() => endAll(child.pid), 200).unref());
    child.on('close', (code, killedBy) => finish(killedBy ? failed(`it was ended by ${killedBy}`) : code ? failed(`it exited with code ${code}`) : undefined));
  });
  try {
    return headersFrom(output);
  } catch (e) {
    throw failed((e as Error).message);
  }
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
    if (NOT_IN_FIELD_VALUE.test(value)) throw new Error(`the value of ${shownName} holds a character a request cannot carry`);
    // As a request sends it: without spaces at its ends (and so masked as it is sent).
    headers[name] = value.trim();
  }
  return headers;
}
