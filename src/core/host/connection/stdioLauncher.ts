// A stdio server: a child process with the user's whole environment, its stderr read line by line, and on stop its
// whole process tree ended (stdin closed, then SIGTERM, then SIGKILL), so an `npx` wrapper's child never lingers.
import * as fs from 'fs';
import * as path from 'path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parseEnvFile } from '../../config/envFile';
import type { ResolvedStdioServer, ServerDefinition } from '../../config/types';
import type { ServerLog } from '../ports';
import { isAlive, killTree, listDescendants, processIdentity, waitForExit } from '../processTree';
import type { ConnectionOptions, Handshake, Launcher } from './launcher';
import { StartError } from './startErrors';

/**
 * The largest single message a stdio server may send. The SDK's default (10 MB) closes the connection on a 10 MB
 * resource (its JSON, and a blob's base64, are bigger than the bytes); this still stops a server that never ends a line.
 */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The environment a stdio server gets: the user's whole environment, then envFile, then `env` (null removes). */
export function buildStdioEnvironment(
  base: Record<string, string | undefined>,
  server: Pick<ResolvedStdioServer, 'env' | 'envFile'>,
  readFile: (p: string) => string = (p) => fs.readFileSync(p, 'utf8'),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const overrides: Record<string, string | null> = {};
  if (server.envFile) Object.assign(overrides, parseEnvFile(readFile(server.envFile)));
  Object.assign(overrides, server.env);
  for (const [k, v] of Object.entries(overrides)) {
    const key = k.toUpperCase() === 'PATH' ? pathKey : k;
    if (v === null) delete env[key];
    // As VS Code does: a PATH in the config extends the inherited one instead of replacing it.
    else if (key === pathKey && env[pathKey] && !v.includes(env[pathKey])) env[key] = `${v}${path.delimiter}${env[pathKey]}`;
    else env[key] = v;
  }
  return env;
}

export class StdioLauncher implements Launcher {
  private transport: StdioClientTransport | undefined;
  spawnedPid: number | undefined;
  recentOutput: string[] = [];
  readonly exitMessage = 'The server process exited';
  /**
   * The server's process tree as seen once it ran. If the root dies first (a crash), its children are re-parented
   * and can no longer be found from it: stopping then still reaches them through this list.
   */
  private knownTree: { pid: number; identity: string }[] = [];

  constructor(
    private readonly definition: ServerDefinition,
    private readonly server: ResolvedStdioServer,
    private readonly log: ServerLog,
    private readonly options: Pick<ConnectionOptions, 'environment' | 'shutdownStageMs'>,
  ) {}

  get pid(): number | undefined {
    return this.transport?.pid ?? undefined;
  }

  secrets(): readonly string[] {
    return [];
  }

  async connect(handshake: Handshake): Promise<void> {
    const transport = (this.transport = this.createTransport());
    await handshake(transport, () => (this.spawnedPid = this.pid));
    if (this.pid) {
      // With each process's identity, so a pid reused by an unrelated process later is never signalled.
      const descendants = await listDescendants(this.pid).catch(() => []);
      this.knownTree = descendants.flatMap((pid) => {
        const identity = processIdentity(pid);
        return identity ? [{ pid, identity }] : [];
      });
    }
  }

  private createTransport(): StdioClientTransport {
    const def = this.server;
    const cwd = def.cwd ?? this.definition.scope.folderPath;
    let env: Record<string, string>;
    try {
      env = buildStdioEnvironment(this.options.environment, def);
    } catch (e) {
      throw new StartError(`Cannot read envFile ${def.envFile}: ${(e as Error).message}`, false);
    }
    if (cwd && !fs.existsSync(cwd)) throw new StartError(`The working directory ${cwd} does not exist.`, false);
    // As written, not resolved: values from ${env:} or inputs in the arguments stay out of the log.
    const raw = this.definition.raw.type === 'stdio' ? this.definition.raw : def;
    this.log.info(`Starting: ${[raw.command, ...raw.args].join(' ')}${cwd ? ` (in ${cwd})` : ''}`);
    const transport = new StdioClientTransport({ command: def.command, args: def.args, env, cwd, stderr: 'pipe', maxBufferSize: MAX_STDIO_MESSAGE_BYTES });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) this.onStderrLine(line);
    });
    transport.stderr?.on('end', () => partial && this.onStderrLine(partial));
    return transport;
  }

  private onStderrLine(line: string) {
    if (!line.trim()) return;
    this.recentOutput = [...this.recentOutput.slice(-4), line];
    this.log.warn(`[stderr] ${line}`);
  }

  async stop(closeTransport: () => Promise<void>): Promise<void> {
    // The SDK may already have let go of the process (e.g. after a handshake timeout) while it still runs.
    const pid = this.pid ?? (this.spawnedPid !== undefined && isAlive(this.spawnedPid) ? this.spawnedPid : undefined);
    const current = pid ? [pid, ...(await listDescendants(pid).catch(() => []))] : [];
    const stillOurs = this.knownTree.filter((p) => isAlive(p.pid) && processIdentity(p.pid) === p.identity).map((p) => p.pid);
    const tree = [...new Set([...current, ...stillOurs])];
    const closing = closeTransport();
    if (tree.length) {
      const stage = this.options.shutdownStageMs;
      if (!(await waitForExit(tree, stage))) {
        this.log.info('Server did not exit after stdin closed: sending SIGTERM');
        await signalTree(tree, 'SIGTERM');
        if (!(await waitForExit(tree, stage))) {
          this.log.warn('Server did not exit after SIGTERM: sending SIGKILL');
          await signalTree(tree, 'SIGKILL');
          await waitForExit(tree, stage);
        }
      }
    }
    await closing;
  }
}

async function signalTree(tree: number[], signal: NodeJS.Signals) {
  const [root] = tree;
  if (isAlive(root)) await killTree(root, signal).catch(() => []);
  // Children that were re-parented after the root died are no longer in its tree: signal them by pid.
  for (const p of tree.slice(1)) {
    try {
      if (isAlive(p)) process.kill(p, signal);
    } catch {
      // Already gone.
    }
  }
}
