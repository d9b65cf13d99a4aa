import { spawn } from 'child_process';
import * as path from 'path';

/** The repository root, from out/test/unit (compiled) or test/unit (sources). */
export const repoRoot = path.resolve(__dirname, '..', '..', path.basename(path.resolve(__dirname, '..', '..')) === 'out' ? '..' : '.');
export const fixtureServer = (name: string): string => path.join(repoRoot, 'test', 'fixtures', 'servers', name);
export const everythingServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Polls `check` until it returns a truthy value, and resolves with that value; rejects with "timed out waiting for
 * <what>" when `timeoutMs` runs out. The one wait of every suite, unit and integration.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<Truthy<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as Truthy<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Runs `mcp-host` as a user does, in `cwd`, answering its questions from `answers` on stdin. */
export function runMcpHost(cwd: string, args: string[], answers: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'mcp-host.mjs'), ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(answers.map((a) => `${a}\n`).join(''));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
