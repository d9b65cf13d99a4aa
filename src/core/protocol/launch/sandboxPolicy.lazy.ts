// What a confined start may do: the file's `sandbox` rules (VS Code's format) added to defaults that let ordinary
// servers work. Read: the system, but not the home folder, except the working directory, the workspace folder and the
// runner's own install. Write: the working directory and `allowWrite`, never what programs outside the sandbox run or
// obey (sandboxProtection) nor the user's settings outside the workspace folder (such an entry becomes one it may
// never write), and the runner's own package cache, a folder of this server's in the extension's storage
// (never the user's cache, which unconfined runs execute from). Network: the runner's package registry. Part of the
// launch plan, so the trust question shows it and trust is remembered with it.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { PlannedSandbox } from '../../config/launchPlan';
import { isSandboxDomain, type SandboxConfig } from '../../config/sandboxConfig';
import { LaunchPlanError } from './launchPlanError.lazy';
import { inside, settingsProblem, writableProblem } from './sandboxProtection.lazy';

interface Runner {
  /** The variables that point its caches, tool folders and global bin folder into the server's own cache folder. */
  cacheEnv: Record<string, string>;
  /** Folders of the user's it reads but never writes (uv's managed Pythons). */
  readsFromHome: string[];
  /** The package registry it downloads from. */
  domains: string[];
}

const NPM: Runner = { cacheEnv: { npm_config_cache: 'npm' }, readsFromHome: [], domains: ['registry.npmjs.org'] };
const PYPI = ['pypi.org', 'files.pythonhosted.org'];
const UV: Runner = { cacheEnv: { UV_CACHE_DIR: 'uv/cache', UV_TOOL_DIR: 'uv/tools', UV_TOOL_BIN_DIR: 'uv/bin', PIP_CACHE_DIR: 'pip' }, readsFromHome: ['.local/share/uv/python'], domains: PYPI };
const RUNNERS: Record<string, Runner> = {
  npx: NPM,
  npm: NPM,
  node: NPM,
  pnpm: { cacheEnv: { npm_config_cache: 'npm', PNPM_HOME: 'pnpm/home', npm_config_store_dir: 'pnpm/store', npm_config_cache_dir: 'pnpm/cache' }, readsFromHome: [], domains: ['registry.npmjs.org'] },
  uvx: UV,
  uv: UV,
  pipx: { cacheEnv: { PIPX_HOME: 'pipx/home', PIPX_BIN_DIR: 'pipx/bin', PIP_CACHE_DIR: 'pip' }, readsFromHome: [], domains: PYPI },
};

/** The runner a command names (`npx`, `/usr/bin/uvx`, `npx.cmd`), if it is one the defaults know. */
export function runnerOf(command: string): Runner | undefined {
  const base = path.basename(command).toLowerCase().replace(/\.(cmd|exe|bat)$/, '');
  return Object.prototype.hasOwnProperty.call(RUNNERS, base) ? RUNNERS[base] : undefined;
}

/** The runner's variables for a confined start, pointing into its own cache folder `cache`. */
export function runnerCacheEnv(command: string, cache: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, sub] of Object.entries(runnerOf(command)?.cacheEnv ?? {})) env[name] = path.join(cache, sub);
  return env;
}

const unique = (list: (string | undefined)[]): string[] => [...new Set(list.filter((x): x is string => !!x))];

export interface SandboxSource {
  config: SandboxConfig;
  command: string;
  /** The file that runs, as PATH finds it. */
  executable: string | undefined;
  cwd: string | undefined;
  /** The workspace folder (the server's root); undefined for a user-level server. */
  folderPath: string | undefined;
  home: string;
  /** The extension's storage: the server's own package cache is a folder in it. */
  storage: string;
  /** Which server: its cache is its own. */
  identity: string;
  /** The PATH the user's programs run with: none of it may be writable. */
  pathValue: string | undefined;
  /** The user's environment: where its settings are ($COPILOT_HOME, $XDG_CONFIG_HOME, $XDG_STATE_HOME). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A path of the `sandbox` block as the sandbox reads it: `~` is the home folder, `${workspaceFolder}` and
 * `${userHome}` are replaced, a relative path is taken from the workspace folder (the home folder for a user-level
 * server). Any other variable cannot be meant for a path here: the plan is refused, saying which.
 */
export function sandboxPath(value: string, folderPath: string | undefined, home: string): string {
  let out = value === '~' || value.startsWith('~/') ? home + value.slice(1) : value;
  out = out.replace(/\$\{(workspaceFolder|userHome)\}/g, (_whole, name: string) => {
    if (name === 'userHome') return home;
    if (folderPath === undefined) throw new LaunchPlanError(`"${value}" in "sandbox": \${workspaceFolder} has no value for a server that is not in a workspace folder.`);
    return folderPath;
  });
  const other = /\$\{[^}]*\}/.exec(out);
  if (other) throw new LaunchPlanError(`"${value}" in "sandbox": ${other[0]} is not supported in a sandbox path (only ~, \${workspaceFolder} and \${userHome}).`);
  return path.resolve(folderPath ?? home, out);
}

/** The package folder a file lies in (the nearest folder above it with a package.json, at most four up), if any. */
function packageRoot(file: string, home: string): string | undefined {
  let dir = path.dirname(file);
  for (let i = 0; i < 4 && inside(home, dir) && dir !== home; i++, dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return undefined;
}

/**
 * A runner installed under the home folder (nvm, ~/.local/bin, ~/.cargo/bin) stays readable, and only its own install:
 * the folder it is in, and the package it links to (npm's, for nvm's npx), never the folder above (~/.cargo holds
 * credentials).
 */
function runnerInstall(executable: string | undefined, home: string): string[] {
  if (!executable || !inside(home, executable)) return [];
  const dir = path.dirname(executable);
  const own = dir === home ? executable : dir;
  let real: string | undefined;
  try {
    real = fs.realpathSync(executable);
  } catch {
    return [own];
  }
  if (real === executable || !inside(home, real)) return [own];
  return [own, packageRoot(real, home) ?? real];
}

/** The server's own cache folder: one per server (its file and name), so that one server's downloads never feed another. */
export function cacheFolder(storage: string, identity: string): string {
  return path.join(storage, 'sandbox', createHash('sha256').update(identity).digest('hex').slice(0, 16));
}

export function planSandbox({ config, command, executable, cwd, folderPath, home, storage, identity, pathValue, env }: SandboxSource): PlannedSandbox {
  const paths = (list: string[]) => list.filter((p) => p.trim()).map((p) => sandboxPath(p, folderPath, home));
  config = { ...config, filesystem: { allowWrite: paths(config.filesystem.allowWrite), denyRead: paths(config.filesystem.denyRead), denyWrite: paths(config.filesystem.denyWrite) } };
  for (const [key, list] of [['allowedDomains', config.network.allowedDomains], ['deniedDomains', config.network.deniedDomains]] as const) {
    const bad = list.find((d) => !isSandboxDomain(d, key === 'deniedDomains'));
    if (bad !== undefined) throw new LaunchPlanError(`"${bad}" in sandbox.network.${key} is not a domain the sandbox takes (such as "api.example.com", "*.example.com" or "localhost:6379").`);
  }
  const runner = runnerOf(command);
  const cache = runner ? cacheFolder(storage, identity) : undefined;
  const roots = unique([cwd, ...config.filesystem.allowWrite]);
  const ctx = { home, storage, cache, pathValue, env };
  for (const root of roots) {
    const problem = writableProblem(root, ctx);
    if (problem) throw new LaunchPlanError(`A confined server may not write ${root}: ${problem}. ${root === cwd ? 'Give it a working directory ("cwd") of its own.' : 'Remove it from sandbox.filesystem.allowWrite.'}`);
  }
  // The user's settings are never writable (the workspace folder, wherever it is, is the project): such an entry
  // stays in the plan, said as what it may never write.
  const settings = roots.filter((root) => !(folderPath !== undefined && inside(folderPath, root)) && settingsProblem(root, ctx));
  const writable = roots.filter((root) => !settings.includes(root));
  const fromHome = (runner?.readsFromHome ?? []).map((f) => path.join(home, f));
  const readable = unique([cwd && !settings.includes(cwd) ? cwd : undefined, folderPath, ...runnerInstall(executable, home), ...fromHome]).filter((p) => inside(home, p));
  return {
    home,
    hidden: unique([home, ...config.filesystem.denyRead]),
    readable,
    writable,
    ...(cache ? { cache } : {}),
    storage,
    notWritable: unique([...settings, ...config.filesystem.denyWrite]),
    domains: unique([...(runner?.domains ?? []), ...config.network.allowedDomains]),
    deniedDomains: unique(config.network.deniedDomains),
  };
}
