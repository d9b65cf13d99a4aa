// Where a `jwtBearer` auth gets its assertion when it is not written as a reference: a file (a Kubernetes projected
// service-account token, a token a workload's agent writes), read at each token request as such files are rotated,
// from an absolute path only; or a command (a cloud CLI that mints a token), run at each token request. Both capped.
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';

/** A JWT is a few kilobytes; anything much larger is not one. */
const MAX_ASSERTION_BYTES = 64 * 1024;

export async function readAssertionFile(file: string): Promise<string> {
  if (!path.isAbsolute(file)) throw new Error(`"auth.assertionFile" must be an absolute path (use \${workspaceFolder} or \${userHome}), not "${file}".`);
  const handle = await fs.open(file, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new Error(`Could not read the JWT-bearer assertion file ${file}: ${e.code ?? e.message}`);
  });
  try {
    const { size } = await handle.stat();
    if (size > MAX_ASSERTION_BYTES) throw new Error(`The JWT-bearer assertion file ${file} holds ${size} bytes: too large for a JWT.`);
    return (await handle.readFile('utf8')).trim();
  } finally {
    await handle.close();
  }
}

/** How long the command may take (a cloud metadata call, a CLI that mints a token). */
const COMMAND_TIMEOUT_MS = 15_000;

/**
 * Runs the command of a `jwtBearer` auth (no shell: the first item is the program, the rest its arguments) and returns
 * what it prints. Its error output is not repeated: it may hold what the token should have been.
 */
export function runAssertionCommand(argv: readonly string[]): Promise<string> {
  const [program, ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: COMMAND_TIMEOUT_MS, maxBuffer: MAX_ASSERTION_BYTES, windowsHide: true, encoding: 'utf8' }, (error, stdout) => {
      if (!error) return resolve(stdout.trim());
      const e = error as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
      const why = e.killed ? `it did not finish within ${COMMAND_TIMEOUT_MS / 1000} s` : typeof e.code === 'number' ? `it exited with code ${e.code}` : (e.code ?? e.message);
      reject(new Error(`The JWT-bearer assertion command ${JSON.stringify(program)} failed: ${why}.`));
    });
  });
}
