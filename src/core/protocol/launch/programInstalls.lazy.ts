// Where the programs on the user's PATH really live: a PATH entry is often a link into an install of its own (a Node
// in /opt/node: bin/npx -> ../lib/node_modules/npm/bin/npx-cli.js), and what the link runs is that install's files,
// which unconfined programs run as much as the PATH folder itself. Read from the disk, kept while no PATH folder changed.
import * as fs from 'fs';
import * as path from 'path';
import { inside, pathDirs } from './pathInside.lazy';

/** Each PATH folder's installs, and the folder's mtime they were read at. */
const cache = new Map<string, { mtimeMs: number; installs: string[] }>();
/** The most links read in one PATH folder (a folder of links by the thousand is read no further). */
const MAX_LINKS = 5000;

/**
 * The folder a link's target belongs to: its npm package (the folder after the last `node_modules`, with its scope),
 * else the prefix of a `…/bin/x` (the tool's own folder), else the target's folder. Never `/` nor a folder that holds
 * the home folder: then the target's folder.
 */
export function installOf(real: string, home: string): string {
  const parts = real.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at > 0 && at < parts.length - 2) return parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join(path.sep);
  const dir = path.dirname(real);
  const prefix = path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
  return prefix === path.dirname(prefix) || inside(prefix, home) ? dir : prefix;
}

function installsIn(dir: string, home: string): string[] {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(dir).mtimeMs;
  } catch {
    return [];
  }
  const known = cache.get(dir);
  if (known?.mtimeMs === mtimeMs) return known.installs;
  const installs = new Set<string>();
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    // Unreadable: nothing runs from it that can be told.
  }
  for (const entry of entries.filter((e) => e.isSymbolicLink()).slice(0, MAX_LINKS)) {
    try {
      const real = fs.realpathSync(path.join(dir, entry.name));
      if (!inside(dir, real)) installs.add(installOf(real, home));
    } catch {
      // A dangling link runs nothing.
    }
  }
  const list = [...installs];
  cache.set(dir, { mtimeMs, installs: list });
  return list;
}

/** The installs the links of every absolute PATH folder lead into (outside those folders). */
export function programInstalls(pathValue: string | undefined, home: string): string[] {
  return [...new Set([...new Set(pathDirs(pathValue))].flatMap((d) => installsIn(d, home)))];
}
