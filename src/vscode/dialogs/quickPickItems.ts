// Quick picks whose items are replaced while they are open (suggestions asked again as the user types).
import type * as vscode from 'vscode';

/**
 * Gives `pick` new items without undoing the user's move: setting items moves the highlight back to the first one, so
 * the same list again is not set at all, and a new list that still holds the item the user moved the highlight to
 * (same `key`) keeps it there. A highlight still on the first item follows the new first (the best suggestion).
 */
export function replaceItems<T extends vscode.QuickPickItem>(pick: vscode.QuickPick<T>, items: T[], key: (item: T) => string): void {
  const current = pick.items;
  if (items.length === current.length && items.every((item, i) => key(item) === key(current[i]))) return;
  const active = pick.activeItems[0];
  const moved = active !== undefined && current.length > 0 && key(active) !== key(current[0]);
  pick.items = items;
  const kept = moved && items.find((item) => key(item) === key(active));
  if (kept) pick.activeItems = [kept];
}
