// Where the programs on the user's PATH really are: a PATH entry is often a link out of its folder (a Node in
// /opt/node: bin/npx -> ../lib/node_modules/npm/bin/npx-cli.js), and what unconfined programs run is what it leads to:
// for an npm package the whole package (all it loads), else the file. Read from the disk, kept while no PATH folder
// changed.
import * as fs from 'fs';
import * as path from 'path';
import { inside, pathDirs } from './pathInside.lazy';

/** Each PATH folder's installs, and the folder's mtime they were read at. */
const cache = new Map<string, { mtimeMs: number; installs: Install[] }>();
/** The most links read in one PATH folder (a folder of links by the thousand is read no further). */
const MAX_LINKS = 5000;

/** What a PATH link runs, outside its PATH folder: its npm package whole (all it loads), else the file it leads to. */
export interface Install {
  path: string;
  folder: boolean;
}

/** The install of a link's target: the folder after the last `node_modules` (with its scope), else the target itself. */
export function installOf(real: string): Install {
  const parts = real.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at > 0 && at < parts.length - 2) return { path: parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join(path.sep), folder: true };
  return { path: real, folder: false };
}

function installsIn(dir: string): Install[] {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(dir).mtimeMs;
  } catch {
    return [];
  }
  const known = cache.get(dir);
  if (known?.mtimeMs === mtimeMs) return known.installs;
  const installs = new Map<string, Install>();
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    // Unreadable: nothing runs from it that can be told.
  }
  for (const entry of entries.filter((e) => e.isSymbolicLink()).slice(0, MAX_LINKS)) {
    try {
      const real = fs.realpathSync(path.join(dir, entry.name));
      if (inside(dir, real)) continue;
      const install = installOf(real);
      installs.set(install.path, install);
    } catch {
      // A dangling link runs nothing.
    }
  }
  const list = [...installs.values()];
  cache.set(dir, { mtimeMs, installs: list });
  return list;
}

/** The installs the links of every absolute PATH folder lead into (outside those folders). */
export function programInstalls(pathValue: string | undefined): Install[] {
  return [...new Set(pathDirs(pathValue))].flatMap((d) => installsIn(d));
}
