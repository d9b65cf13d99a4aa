// What a confined start may do: the file's `sandbox` rules (VS Code's format) added to defaults that let ordinary
// servers work. Read: the system, but not the home folder, except the working directory, the workspace folder, the
// runner's package cache and the runner itself when it is installed there. Write: the working directory, the runner's
// package cache (and, at launch, a private temp dir). Network: the runner's package registry. Part of the launch plan,
// so the trust question shows it and trust is remembered with it.
import * as path from 'path';
import type { PlannedSandbox } from '../../config/launchPlan';
import type { SandboxConfig } from '../../config/sandboxConfig';
import { LaunchPlanError } from './launchPlanError.lazy';

interface Runner {
  /** Folders under the home folder it keeps packages in: readable and writable. */
  caches: string[];
  /** The package registry it downloads from. */
  domains: string[];
}

const NPM: Runner = { caches: ['.npm'], domains: ['registry.npmjs.org'] };
const UV: Runner = { caches: ['.cache/uv', '.local/share/uv'], domains: ['pypi.org', 'files.pythonhosted.org'] };
const RUNNERS: Record<string, Runner> = {
  npx: NPM,
  npm: NPM,
  node: NPM,
  pnpm: { caches: ['.npm', '.local/share/pnpm', '.cache/pnpm'], domains: ['registry.npmjs.org'] },
  uvx: UV,
  uv: UV,
  pipx: { caches: ['.local/pipx', '.cache/pip'], domains: ['pypi.org', 'files.pythonhosted.org'] },
};

/** The runner a command names (`npx`, `/usr/bin/uvx`, `npx.cmd`), if it is one the defaults know. */
export function runnerOf(command: string): Runner | undefined {
  const base = path.basename(command).toLowerCase().replace(/\.(cmd|exe|bat)$/, '');
  return Object.prototype.hasOwnProperty.call(RUNNERS, base) ? RUNNERS[base] : undefined;
}

const inside = (parent: string, child: string): boolean => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

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

export function planSandbox({ config, command, executable, cwd, folderPath, home }: SandboxSource): PlannedSandbox {
  const paths = (list: string[]) => list.filter((p) => p.trim()).map((p) => sandboxPath(p, folderPath, home));
  config = { ...config, filesystem: { allowWrite: paths(config.filesystem.allowWrite), denyRead: paths(config.filesystem.denyRead), denyWrite: paths(config.filesystem.denyWrite) } };
  const runner = runnerOf(command);
  const caches = (runner?.caches ?? []).map((c) => path.join(home, c));
  // A runner installed under the home folder (nvm, volta, ~/.local/bin) must stay readable, with its whole install.
  const installedAt = executable && inside(home, executable) ? path.dirname(path.dirname(executable)) : undefined;
  const readable = unique([cwd, folderPath, ...caches, installedAt !== home ? installedAt : executable]).filter((p) => inside(home, p));
  return {
    hidden: unique([home, ...config.filesystem.denyRead]),
    readable,
    writable: unique([cwd, ...caches, ...config.filesystem.allowWrite]),
    notWritable: unique(config.filesystem.denyWrite),
    domains: unique([...(runner?.domains ?? []), ...config.network.allowedDomains]),
    deniedDomains: unique(config.network.deniedDomains),
  };
}
