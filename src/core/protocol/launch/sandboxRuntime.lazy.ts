// Runs a confined start through Anthropic's sandbox runtime (@anthropic-ai/sandbox-runtime, the one VS Code uses):
// its `srt` command line, with a settings file written from the launch plan's rules, wraps the planned executable and
// arguments (bubblewrap on Linux, sandbox-exec on macOS, a filtering proxy for the network). Whether this machine can
// confine is checked first, and said in a sentence when it cannot: a confined server never silently runs unconfined.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PlannedSandbox } from '../../config/launchPlan';

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
 * The runtime's command line: in the package, the bundled one beside the host bundle (dist/sandbox-runtime, made by
 * esbuild.js, its seccomp helpers beside it); elsewhere (tests, the CLI) the one in node_modules. Undefined: neither.
 */
export function sandboxRuntimeCli(): string | undefined {
  const bundled = path.join(__dirname, 'sandbox-runtime', 'cli.mjs');
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
  try {
    const cli = path.join(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime/package.json')), 'dist', 'cli.js');
    return fs.existsSync(cli) ? cli : undefined;
  } catch {
    return undefined;
  }
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

/** The runtime's settings: the plan's rules, and the private temp dir writable. */
export function runtimeSettings(sandbox: PlannedSandbox, tempDir: string): object {
  return {
    network: { allowedDomains: [...sandbox.domains], deniedDomains: [...sandbox.deniedDomains] },
    filesystem: { denyRead: [...sandbox.hidden], allowRead: [...sandbox.readable], allowWrite: [...sandbox.writable, tempDir], denyWrite: [...sandbox.notWritable] },
  };
}

export interface ConfinedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The private temp dir (the process's TMPDIR). */
  tempDir: string;
  /** Removes the settings and the temp dir. */
  dispose(): void;
}

/**
 * The command that runs `executable args` confined: node running the runtime's command line with a settings file of
 * this start (kept out of what the process may write), the private temp dir as its TMPDIR, and the runtime's
 * denials logged to stderr (SRT_DEBUG), where the launcher reads them.
 */
export function confinedCommand(sandbox: PlannedSandbox, executable: string, args: readonly string[], env: Readonly<Record<string, string>>): ConfinedCommand {
  const cli = sandboxRuntimeCli();
  if (!cli) throw new Error('The sandbox runtime (@anthropic-ai/sandbox-runtime) is not installed with the extension.');
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-sandbox-')));
  const tempDir = path.join(dir, 'tmp');
  fs.mkdirSync(tempDir);
  const settings = path.join(dir, 'settings.json');
  fs.writeFileSync(settings, JSON.stringify(runtimeSettings(sandbox, tempDir), null, 2), { mode: 0o600 });
  return {
    // The extension host's own Node (Electron's, run as Node): nothing else needs to be installed.
    command: process.execPath,
    args: [cli, '--settings', settings, '--', executable, ...args],
    env: {
      ...env,
      ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
      CLAUDE_CODE_TMPDIR: tempDir,
      SRT_DEBUG: '1',
      // Node's fetch goes through the sandbox's proxy only when asked to (Node 22.21 and later); DNS fails otherwise.
      NODE_USE_ENV_PROXY: '1',
    },
    tempDir,
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
