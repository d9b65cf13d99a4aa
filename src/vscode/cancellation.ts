// VS Code's cancellation, as the core's: a CancellationToken aborts an AbortController (with VS Code's
// CancellationError as the reason, which VS Code reports as "cancelled" rather than as a failure).
import vscode = require('vscode');

/** Aborts `controller` when `token` is cancelled; dispose to stop listening. */
export function abortOnCancel(token: vscode.CancellationToken, controller: AbortController): vscode.Disposable {
  if (token.isCancellationRequested) controller.abort(new vscode.CancellationError());
  return token.onCancellationRequested(() => controller.abort(new vscode.CancellationError()));
}
