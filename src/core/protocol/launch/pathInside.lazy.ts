// Path relations the sandbox's rules are made of, in one place so that every part of the rule reads them alike.
import * as path from 'path';

/** `child` is `parent` or lies below it. */
export const inside = (parent: string, child: string): boolean => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The absolute folders of a PATH value, resolved (a relative entry is the working directory, which is no install). */
export const pathDirs = (pathValue: string | undefined): string[] => (pathValue ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)).map((d) => path.resolve(d));
