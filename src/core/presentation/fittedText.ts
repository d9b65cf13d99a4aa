// Text for places that show one line and cut the rest without a word: quick-pick placeholders (about 60 characters
// fit the quick input's width) and notifications (one line of about 120 before "…"). What does not fit goes into
// rows, tooltips or a second sentence the user can open, never into a line that ends mid-word.
import { plainText, truncate } from './serverText';

/** About this many characters of a placeholder show in the quick input at its usual width. */
export const PLACEHOLDER_MAX = 60;
/** A toast shows about this much before it folds the rest away. */
export const NOTIFICATION_MAX = 120;

/** A placeholder from text that may be long (a server's description): one line, at most PLACEHOLDER_MAX characters. */
export const placeholderText = (text: string): string => truncate(plainText(text), PLACEHOLDER_MAX);

/** Names as a short list: `a, b and c`, or `a, b and 3 more`. */
export function nameList(names: readonly string[], shown = 2): string {
  if (names.length <= shown + 1) return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** "MCP: Import Servers…" done: how many went where, and how many were already there; short enough for a toast. */
export function importSummary(imported: readonly string[], alreadyThere: readonly string[], where: string): string {
  const what = imported.length ? `imported ${nameList(imported.map((n) => truncate(n, 16)))}` : 'imported nothing';
  const left = alreadyThere.length ? ` (${alreadyThere.length} already there, left alone)` : '';
  return plainText(`MCP Host: ${what} into ${truncate(where, 40)}${left}.`);
}
