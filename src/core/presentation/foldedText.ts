// A question too long for a modal dialog (a native dialog is cut by the screen, silently) is folded: its first lines
// are shown with a line that says how many more there are, and a "Show All" button shows every line before the user
// decides. Nothing is clipped into an ellipsis.

export interface FoldedText {
  /** What the dialog shows. */
  shown: string;
  /** Lines left out of `shown` (0: the whole text is shown). */
  hiddenLines: number;
}

export const SHOW_ALL = 'Show All…';

export function foldForDialog(text: string, maxLines = 30, maxChars = 4000): FoldedText {
  const lines = text.split('\n');
  let count = 0;
  let chars = 0;
  while (count < lines.length && count < maxLines && chars + lines[count].length <= maxChars) chars += lines[count++].length + 1;
  // A first line longer than the whole budget is still shown whole: names and values are never cut.
  if (count === 0) count = 1;
  const hiddenLines = lines.length - count;
  if (!hiddenLines) return { shown: text, hiddenLines: 0 };
  return { shown: `${lines.slice(0, count).join('\n')}\n\n(${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} not shown here: choose "${SHOW_ALL}" to read every line before you decide.)`, hiddenLines };
}
