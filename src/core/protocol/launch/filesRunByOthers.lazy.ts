// The files the other configured servers run or are given (`node ./server.js`, a `headersHelper` script): a confined
// server may not write them, since they then run unconfined, with the user's rights. Read from the definitions as
// written (a `${workspaceFolder}` or `${userHome}` resolved, other variables skipped); a bare command name is the
// PATH's, not the workspace's. Which of them exist, and lie where the server may write, is decided at each start.
import * as path from 'path';
import type { DefinedServer } from '../../config/launchPlan';

/** A literal path of a definition, made absolute; undefined for a bare name, a flag, or a value with other variables. */
function literalPath(value: string, base: string, folder: string | undefined, home: string, bareIsPath: boolean): string | undefined {
  if (value.startsWith('-')) return undefined;
  let literal = value.split('${userHome}').join(home);
  if (folder !== undefined) literal = literal.split('${workspaceFolder}').join(folder);
  if (literal.includes('${')) return undefined;
  if (!bareIsPath && !literal.includes('/') && !literal.includes('\\')) return undefined;
  return path.resolve(base, literal);
}

/** `others`: every configured server but the one that starts. */
export function filesRunByOthers(others: readonly DefinedServer[], home: string): string[] {
  const files = new Set<string>();
  for (const { scope, raw } of others) {
    const folder = scope.folderPath;
    const base = (raw.type === 'stdio' && raw.cwd ? literalPath(raw.cwd, folder ?? home, folder, home, true) : undefined) ?? folder ?? home;
    const [program, ...args] = raw.type === 'stdio' ? [raw.command, ...raw.args] : (raw.headersHelper ?? []);
    if (program === undefined) continue;
    const candidates = [literalPath(program, base, folder, home, false), ...args.map((a) => literalPath(a, base, folder, home, true))];
    for (const file of candidates) if (file) files.add(file);
  }
  return [...files];
}
