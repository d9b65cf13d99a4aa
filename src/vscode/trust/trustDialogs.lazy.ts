// The trust question's native dialogs (see ../dialogs, whose native dialogs forward here), rendered by
// trustQuestionText: loaded on demand, since the question is asked once the launch plan is built.
import vscode = require('vscode');
import { foldForDialog, SHOW_ALL } from '../../core/presentation/foldedText';
import { trustManyQuestionText, trustQuestionText, type RenderedQuestion } from '../../core/presentation/trustQuestionText';
import type { ModalDialogs } from '../dialogs/dialogRouter';

/**
 * A modal question whose long text folds behind "Show All…": every line then opens in an editor, and the question is
 * asked again as a notification that stays while the user reads (a modal would cover the editor). `lastCloses`: the
 * last button is what Escape gives (its answer), and the dialog adds no "Cancel" of its own beside it.
 */
export async function askFolded<A>({ message, detail, buttons }: RenderedQuestion<A>, lastCloses = false): Promise<A | undefined> {
  const items: vscode.MessageItem[] = buttons.map((b, i) => ({ title: b.label, isCloseAffordance: lastCloses && i === buttons.length - 1 }));
  const folded = foldForDialog(detail);
  const showAll: vscode.MessageItem = { title: SHOW_ALL };
  // The close button stays last, where the dialog puts it.
  const shown = folded.hiddenLines ? (lastCloses ? [...items.slice(0, -1), showAll, items[items.length - 1]] : [...items, showAll]) : items;
  let answer = await vscode.window.showWarningMessage(message, { modal: true, detail: folded.shown }, ...shown);
  if (answer === showAll) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: `${message}\n\n${detail}\n`, language: 'plaintext' }), { preview: true });
    answer = await vscode.window.showWarningMessage(`${message} (The whole question is in the editor.)`, ...items);
    // A notification closed without an answer is no answer, whichever button would close a modal.
    if (answer === undefined) return undefined;
  }
  if (answer === undefined && lastCloses) return buttons[buttons.length - 1].answer;
  return buttons.find((b) => b.label === answer?.title)?.answer;
}

export const trustDialogs: Pick<ModalDialogs, 'confirmTrust' | 'confirmTrustMany'> = {
  confirmTrust: (q) => askFolded(trustQuestionText(q)),
  confirmTrustMany: (q) => askFolded(trustManyQuestionText(q)),
};
