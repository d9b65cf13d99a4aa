// Quick picks whose items are replaced while they are open (suggestions asked again as the user types).
import type * as vscode from 'vscode';

/**
 * Gives `pick` new items without moving the user's highlight: setting items moves it back to the first one, so the
 * same list again is not set at all, and a new list that still holds the highlighted item (same `key`) keeps it.
 */
export function replaceItems<T extends vscode.QuickPickItem>(pick: vscode.QuickPick<T>, items: T[], key: (item: T) => string): void {
  const current = pick.items;
  if (items.length === current.length && items.every((item, i) => key(item) === key(current[i]))) return;
  const active = pick.activeItems[0];
  pick.items = items;
  const kept = active && items.find((item) => key(item) === key(active));
  if (kept) pick.activeItems = [kept];
}
