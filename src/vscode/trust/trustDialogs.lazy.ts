// The trust question's native dialogs (see ../dialogs, whose native dialogs forward here), rendered by
// trustQuestionText: loaded on demand, since the question is asked once the launch plan is built.
import vscode = require('vscode');
import { foldForDialog, SHOW_ALL } from '../../core/presentation/foldedText';
import { trustManyQuestionText, trustQuestionText, type RenderedQuestion } from '../../core/presentation/trustQuestionText';
import type { ModalDialogs } from '../dialogs/dialogRouter';

/**
 * A modal question whose long text folds behind "Show All…": every line then opens in an editor, and the question is
 * asked again as a notification that stays while the user reads (a modal would cover the editor).
 */
export async function askFolded<A>({ message, detail, buttons }: RenderedQuestion<A>): Promise<A | undefined> {
  const labels = buttons.map((b) => b.label);
  const folded = foldForDialog(detail);
  let answer = await vscode.window.showWarningMessage(message, { modal: true, detail: folded.shown }, ...labels, ...(folded.hiddenLines ? [SHOW_ALL] : []));
  if (answer === SHOW_ALL) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: `${message}\n\n${detail}\n`, language: 'plaintext' }), { preview: true });
    answer = await vscode.window.showWarningMessage(`${message} (The whole question is in the editor.)`, ...labels);
  }
  return buttons.find((b) => b.label === answer)?.answer;
}

export const trustDialogs: Pick<ModalDialogs, 'confirmTrust' | 'confirmTrustMany'> = {
  confirmTrust: (q) => askFolded(trustQuestionText(q)),
  confirmTrustMany: (q) => askFolded(trustManyQuestionText(q)),
};
