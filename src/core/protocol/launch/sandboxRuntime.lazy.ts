// Runs a confined start through Anthropic's sandbox runtime (@anthropic-ai/sandbox-runtime, the one VS Code uses):
// our launcher of it (./sandboxLauncher.mts), given settings made from the launch plan's rules on a descriptor, wraps
// the planned executable and arguments (bubblewrap on Linux, sandbox-exec on macOS, a filtering proxy for the network).
// Whether this machine can confine is checked first, and said in a sentence when it cannot: a confined server never
// silently runs unconfined.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PlannedSandbox } from '../../config/launchPlan';
import { runnerCacheEnv } from './sandboxPolicy.lazy';
import { holdProtection, type SandboxHold } from './sandboxHold.lazy';
import { inside, PLACEHOLDER_NAMES, protectedWrites } from './sandboxProtection.lazy';

export type SandboxSupport = { ok: true } | { ok: false; reason: string };

const onPath = (name: string, env: Record<string, string | undefined>): boolean =>
  (env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir || '.', name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/**
 * Our launcher of the runtime (./sandboxLauncher.mts): in the package, the bundled one beside the host bundle
 * (dist/sandbox-runtime/launcher.mjs, made by esbuild.js, the runtime's seccomp helpers beside it); elsewhere (tests,
 * the CLI) the one tsc compiled beside this file, which takes the runtime from node_modules. Undefined: neither.
 */
export function sandboxRuntimeCli(): string | undefined {
  const bundled = path.join(__dirname, 'sandbox-runtime', 'launcher.mjs');
  if (fs.existsSync(bundled)) {
    // A package (a zip) may not keep the helpers' executable bit: given back where the extension's folder allows it.
    for (const arch of ['x64', 'arm64']) {
      try {
        fs.chmodSync(path.join(__dirname, 'sandbox-runtime', 'vendor', 'seccomp', arch, 'apply-seccomp'), 0o755);
      } catch {
        // Missing or read-only: the runtime says what it lacks.
      }
    }
    return bundled;
  }
  const compiled = path.join(__dirname, 'sandboxLauncher.mjs');
  return fs.existsSync(compiled) ? compiled : undefined;
}

let cachedLinuxCheck: SandboxSupport | undefined;

/** Whether bubblewrap can make the namespaces it needs here (a container without user namespaces cannot). */
function linuxNamespaces(): SandboxSupport {
  if (cachedLinuxCheck) return cachedLinuxCheck;
  const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', '--dev', '/dev', 'true'], { timeout: 10_000, encoding: 'utf8' });
  const detail = (r.stderr || r.error?.message || '').trim().split('\n', 1)[0].slice(0, 300);
  cachedLinuxCheck = r.status === 0 ? { ok: true } : { ok: false, reason: `bubblewrap cannot create the sandbox's namespaces on this machine (user namespaces disabled?)${detail ? `: ${detail}` : ''}.` };
  return cachedLinuxCheck;
}

/** Whether a confined server can run on this machine, or the reason it cannot, in words the user can act on. */
export function sandboxSupport(platform: NodeJS.Platform = process.platform, env: Record<string, string | undefined> = process.env): SandboxSupport {
  if (platform === 'win32') return { ok: false, reason: 'Windows cannot confine an MCP server (the sandbox runs on Linux and macOS).' };
  if (platform !== 'linux' && platform !== 'darwin') return { ok: false, reason: `This platform (${platform}) cannot confine an MCP server (the sandbox runs on Linux and macOS).` };
  if (!sandboxRuntimeCli()) return { ok: false, reason: 'The sandbox runtime (@anthropic-ai/sandbox-runtime) is not installed with the extension.' };
  const needed = platform === 'linux' ? [['bwrap', 'bubblewrap'], ['socat', 'socat'], ['rg', 'ripgrep']] : [['sandbox-exec', 'sandbox-exec'], ['rg', 'ripgrep']];
  const missing = needed.filter(([cmd]) => !onPath(cmd, env));
  if (missing.length) {
    const names = missing.map(([cmd, pkg]) => (cmd === pkg ? cmd : `${pkg} (${cmd})`)).join(', ');
    const how = platform === 'linux' ? ` Install ${missing.length === 1 ? 'it' : 'them'}: sudo apt-get install ${missing.map(([, pkg]) => pkg).join(' ')} (or your distribution's packages).` : ' Install ripgrep (brew install ripgrep).';
    return { ok: false, reason: `The sandbox needs ${names}, not found on the PATH.${how}` };
  }
  return platform === 'linux' ? linuxNamespaces() : { ok: true };
}

/** The most entries listed in place of one readable folder (see readableAround). */
const MAX_LISTED = 1000;

/**
 * The readable paths, with a folder that holds a writable one (the workspace folder around a working directory in it)
 * given as its entries beside the branch that leads there: the runtime binds readable folders back over the hidden home
 * after the writable ones, so such a folder would make what it holds read-only. Past MAX_LISTED entries it stays whole.
 */
export function readableAround(readable: readonly string[], writable: readonly string[]): string[] {
  const out: string[] = [];
  const holds = (dir: string) => writable.some((w) => w !== dir && inside(dir, w));
  const expand = (dir: string): string[] | undefined => {
    const listed: string[] = [];
    const pending = [dir];
    while (pending.length) {
      const current = pending.pop()!;
      let names: string[];
      try {
        names = fs.readdirSync(current);
      } catch {
        return undefined;
      }
      for (const name of names) {
        const p = path.join(current, name);
        if (writable.includes(p)) continue;
        if (holds(p)) pending.push(p);
        else listed.push(p);
        if (listed.length > MAX_LISTED) return undefined;
      }
    }
    return listed;
  };
  for (const r of readable) out.push(...(holds(r) ? (expand(r) ?? [r]) : [r]));
  return [...new Set(out)];
}

/**
 * The runtime's placeholders of absent protected files are empty files while the server runs: its own git leaves them
 * out (an excludes file given as one more `GIT_CONFIG_*` entry, after any the environment has), so that its status is
 * the repository's and `git add -A` adds nothing of them.
 */
function placeholdersUnlisted(env: Readonly<Record<string, string>>, excludes: string): Record<string, string> {
  const count = Number(env.GIT_CONFIG_COUNT);
  const n = Number.isInteger(count) && count >= 0 && count < 1000 ? count : 0;
  return { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: 'core.excludesFile', [`GIT_CONFIG_VALUE_${n}`]: excludes };
}

/** A path the runtime takes as that very name, never as a pattern (a folder may be called `[WIP] x`). */
const literal = (p: string) => ({ path: p, literal: true as const });

/**
 * The runtime's settings: the plan's rules, the server's own package cache and the private temp dir writable, and
 * every path the rule of sandboxProtection protects added to denyWrite (`denied`: as the hold found them; else as the
 * disk is now). The file's own `denyRead` and `denyWrite` entries go as written: the runtime reads patterns in them.
 */
export function runtimeSettings(sandbox: PlannedSandbox, tempDir: string, env: Readonly<Record<string, string | undefined>>, denied?: readonly string[]): SandboxSettings {
  const protectedPaths = denied ?? protectedWrites(sandbox.writable, { home: sandbox.home, storage: sandbox.storage, cache: sandbox.cache, pathValue: env.PATH, env, runByOthers: sandbox.runByOthers }).map((p) => p.path);
  const own = [...(sandbox.cache ? [sandbox.cache] : []), tempDir];
  return {
    network: { allowedDomains: [...sandbox.domains], deniedDomains: [...sandbox.deniedDomains] },
    filesystem: {
      denyRead: [...sandbox.hidden],
      allowRead: [...readableAround(sandbox.readable, [...sandbox.writable, ...own]), ...own].map(literal),
      allowWrite: [...sandbox.writable, ...own].map(literal),
      denyWrite: [...sandbox.notWritable, ...protectedPaths.map(literal)],
    },
  };
}

export interface SandboxSettings {
  network: { allowedDomains: string[]; deniedDomains: string[] };
  filesystem: { denyRead: string[]; allowRead: LiteralPath[]; allowWrite: LiteralPath[]; denyWrite: (string | LiteralPath)[] };
}
type LiteralPath = ReturnType<typeof literal>;

export interface ConfinedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The runtime's settings, which the launcher reads on its fd 4 (never a file another confined server could rewrite). */
  settings: string;
  /** The private temp dir (the process's TMPDIR). */
  tempDir: string;
  /** What the end of earlier confined starts undid (see gitAftermath), for the log. */
  notes: string[];
  /** Lets its placeholders go and removes its temp dir, once (the launcher calls it when the process has exited); says what it undid. */
  dispose(): string[];
}

/**
 * The command that runs `executable args` confined: the host's own Node running our launcher of the runtime, its
 * settings on fd 4, the private temp dir as its TMPDIR, and its runner's caches pointed into its own cache folder.
 * Denials come on the process's fd 3 (see sandboxLauncher.mts). `hostEnv`: the user's environment (its PATH and
 * settings folders, which the server's own `env` does not decide); `cwd`: where it runs.
 */
export function confinedCommand(sandbox: PlannedSandbox, command: string, executable: string, args: readonly string[], env: Readonly<Record<string, string>>, hostEnv: Readonly<Record<string, string | undefined>> = env, cwd = process.cwd()): ConfinedCommand {
  const cli = sandboxRuntimeCli();
  if (!cli) throw new Error('The sandbox runtime (@anthropic-ai/sandbox-runtime) is not installed with the extension.');
  if (sandbox.cache) fs.mkdirSync(sandbox.cache, { recursive: true, mode: 0o700 });
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-sandbox-')));
  let hold: SandboxHold | undefined;
  try {
    const tempDir = path.join(dir, 'tmp');
    fs.mkdirSync(tempDir);
    hold = holdProtection(sandbox, [...sandbox.writable, ...(sandbox.cache ? [sandbox.cache] : []), tempDir], cwd, hostEnv);
    const settings = JSON.stringify(runtimeSettings(sandbox, tempDir, hostEnv, hold.denied));
    const excludes = path.join(dir, 'git-excludes');
    fs.writeFileSync(excludes, PLACEHOLDER_NAMES.map((n) => `/${n}\n`).join(''));
    const held = hold;
    let disposed = false;
    return {
      // The extension host's own Node (Electron's, run as Node): nothing else needs to be installed.
      command: process.execPath,
      args: [cli, executable, ...args],
      env: {
        ...env,
        ...(sandbox.cache ? runnerCacheEnv(command, sandbox.cache) : {}),
        ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
        ...placeholdersUnlisted(env, excludes),
        CLAUDE_CODE_TMPDIR: tempDir,
        // Node's fetch goes through the sandbox's proxy only when asked to (Node 22.21 and later); DNS fails otherwise.
        NODE_USE_ENV_PROXY: '1',
      },
      settings,
      tempDir,
      notes: held.notes,
      dispose: () => {
        if (disposed) return [];
        disposed = true;
        fs.rmSync(dir, { recursive: true, force: true });
        return held.release();
      },
    };
  } catch (e) {
    hold?.release();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
