// Where a bare command (`npx`, `uvx`) is found on Windows. Windows looks in the current directory before PATH, and
// the server's working directory is the workspace folder: a folder shipping its own `npx.cmd` would run it. So the
// command is resolved here against the absolute entries of PATH only, with PATHEXT, before anything is spawned.
import * as fs from 'fs';
import * as path from 'path';

export interface CommandLookup {
  /** PATH and PATHEXT as the server gets them (keys in any case). */
  env: Record<string, string>;
  isFile?(file: string): boolean;
}

const exists = (file: string): boolean => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

const lookup = (env: Record<string, string>, name: string): string | undefined =>
  Object.entries(env).find(([k]) => k.toUpperCase() === name)?.[1];

/** The absolute path a bare Windows command runs from, or undefined when PATH has none. Paths are left alone. */
export function resolveWindowsCommand(command: string, { env, isFile = exists }: CommandLookup): string | undefined {
  if (/[\\/]/.test(command) || path.win32.isAbsolute(command)) return command;
  const extensions = (lookup(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const candidates = path.win32.extname(command) ? [''] : extensions;
  for (const dir of (lookup(env, 'PATH') ?? '').split(';')) {
    const entry = dir.replace(/^"(.*)"$/, '$1');
    // A relative entry ('.', 'bin') is the working directory again.
    if (!path.win32.isAbsolute(entry)) continue;
    for (const ext of candidates) {
      const file = path.win32.join(entry, command + ext);
      if (isFile(file)) return file;
    }
  }
  return undefined;
}
