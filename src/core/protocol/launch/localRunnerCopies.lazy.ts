// Package runners (npx, npm exec, pnpm dlx/exec, yarn dlx, bunx, uvx, pipx run) run the copy of a package they find
// next to the working directory before the package registry's: a repository that commits `node_modules/<pkg>` (or a
// `node_modules/.bin/<bin>`, or a `.venv/bin/<bin>`) decides what `npx -y <pkg>` runs. The trust question names every
// such local copy, found from the working directory up to the file system's root. (The runners' settings files, which
// name another package index, are read by runnerSettings.lazy.ts.)
import * as fs from 'fs';
import * as path from 'path';

const NODE_RUNNERS: Record<string, string[] | undefined> = { npx: [], bunx: [], npm: ['exec', 'x'], pnpm: ['dlx', 'exec'], yarn: ['dlx', 'exec'], bun: ['x'] };
/** Options of the runners that take a value (the package name follows them or is them). */
const PACKAGE_OPTIONS = new Set(['-p', '--package', '--from', '--spec']);
const MAX_DEPTH = 64;

const exists = (file: string): boolean => {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

const runnerName = (command: string) => path.basename(command).replace(/\.(cmd|exe|bat|ps1)$/i, '').toLowerCase();

/** The package a runner's arguments name (version stripped), or undefined. */
export function runnerPackage(command: string, args: readonly string[]): { runner: 'node' | 'uv'; name: string } | undefined {
  const runner = runnerName(command);
  let rest = [...args];
  let kind: 'node' | 'uv';
  if (runner in NODE_RUNNERS) {
    const sub = NODE_RUNNERS[runner]!;
    if (sub.length) {
      if (!sub.includes(rest[0] ?? '')) return undefined;
      rest = rest.slice(1);
    }
    kind = 'node';
  } else if (runner === 'uvx' || (runner === 'uv' && rest[0] === 'tool' && rest[1] === 'run')) {
    rest = runner === 'uv' ? rest.slice(2) : rest;
    kind = 'uv';
  } else if (runner === 'pipx' && rest[0] === 'run') {
    rest = rest.slice(1);
    kind = 'uv';
  } else return undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [option, inline] = arg.split(/=(.*)/s);
    if (PACKAGE_OPTIONS.has(option)) return { runner: kind, name: stripVersion(inline ?? rest[i + 1] ?? '') };
    if (arg === '--') return rest[i + 1] ? { runner: kind, name: stripVersion(rest[i + 1]) } : undefined;
    if (arg.startsWith('-')) continue;
    return { runner: kind, name: stripVersion(arg) };
  }
  return undefined;
}

const stripVersion = (spec: string) => spec.replace(/^(@?[^@]+)@.*$/s, '$1').replace(/\[.*$/s, '').replace(/[=<>~!].*$/s, '');

/** Every local copy the runner would prefer to the package registry's, as absolute paths; empty when none (or not a runner). */
export function localRunnerCopies(command: string, args: readonly string[], cwd: string | undefined, found = exists): string[] {
  const pkg = runnerPackage(command, args);
  if (!pkg || !cwd || !pkg.name || pkg.name.includes('..')) return [];
  const copies: string[] = [];
  let dir = path.resolve(cwd);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const candidates =
      pkg.runner === 'node'
        ? [path.join(dir, 'node_modules', ...pkg.name.split('/')), path.join(dir, 'node_modules', '.bin', pkg.name.split('/').pop()!)]
        : [path.join(dir, '.venv', 'bin', pkg.name)];
    copies.push(...candidates.filter((c) => found(c)));
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return copies;
}
