// A server that ends in error never fails silently: a notification says why and offers the way out.
import vscode = require('vscode');
import type { ServerManager } from '../../core/host/serverManager';
import { plainText } from '../../core/presentation/serverText';
import type { ServerOutputChannels } from './serverLogs';

export function notifyFailures(manager: ServerManager, logs: ServerOutputChannels): vscode.Disposable {
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- fire-and-forget dialog; its actions' failures are caught below
  return manager.onDidFail(async ({ server, message }) => {
    const showOutput = 'Show Output';
    const restart = 'Restart';
    const openConfig = 'Open Configuration';
    const answer = await vscode.window.showErrorMessage(`MCP server "${plainText(server.name)}": ${plainText(message)}`, showOutput, restart, openConfig);
    try {
      if (answer === showOutput) logs.show(server.id);
      else if (answer === restart) await manager.get(server.id)?.restart();
      else if (answer === openConfig) await vscode.window.showTextDocument(vscode.Uri.file(server.scope.configPath));
    } catch (e) {
      void vscode.window.showErrorMessage(`MCP server "${plainText(server.name)}": ${plainText((e as Error).message)}`);
    }
  });
}
