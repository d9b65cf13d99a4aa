// Remote servers for the tests, on loopback: the OAuth fixture server, server-everything on a chosen port (so it can
// be restarted in place), and a TCP proxy whose connections a test can cut.
import { spawn, type ChildProcess } from 'child_process';
import * as net from 'net';
import { fixtureServer, repoRoot, waitFor } from './helpers';
import { freePort } from './hostTestKit';

export interface OAuthFixture {
  port: number;
  url: string;
  process: ChildProcess;
  stats(): Promise<FixtureStats>;
  post(path: '/_expire-sessions' | '/_revoke-tokens'): Promise<void>;
  stop(): Promise<void>;
}

export interface FixtureStats {
  registrations: number;
  authorizations: number;
  tokenRequests: { authorization_code: number; refresh_token: number };
  sessions: number;
  deletes: number;
  authorizationHeaders: (string | null)[];
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
}

/** Starts test/fixtures/servers/oauth-http-server.mjs; resolves once it listens. */
export async function startOAuthFixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [fixtureServer('oauth-http-server.mjs')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`oauth fixture exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    port,
    url: `${base}/mcp`,
    process: child,
    stats: async () => (await (await fetch(`${base}/_stats`)).json()) as FixtureStats,
    post: async (path) => void (await fetch(`${base}${path}`, { method: 'POST' })).text(),
    stop: () => stopChild(child),
  };
}

export interface EverythingHttp {
  port: number;
  process: ChildProcess;
  /** Everything the server printed (it logs each request, e.g. "Client reconnecting with Last-Event-ID"). */
  output(): string;
  stop(): Promise<void>;
}

/** server-everything in an HTTP mode on the given port (a free one by default); resolves once it accepts connections. */
export async function startEverything(mode: 'streamableHttp' | 'sse', port?: number): Promise<EverythingHttp> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [`${repoRoot}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`, mode], {
    env: { ...process.env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await waitFor(() => canConnect(p), `server-everything ${mode} on port ${p}`, 15_000);
  return { port: p, process: child, output: () => output, stop: () => stopChild(child) };
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Forwards a loopback port to another; `cut()` drops every open connection (a network hiccup), new ones still work. */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | undefined;
  port = 0;

  constructor(private readonly target: number) {}

  async start(): Promise<this> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.pipe(b);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as net.AddressInfo).port;
    return this;
  }

  cut(): number {
    const n = this.sockets.size;
    for (const s of this.sockets) s.destroy();
    return n;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
