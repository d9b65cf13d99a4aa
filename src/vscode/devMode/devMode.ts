// Dev mode (`dev.watch`): its file watchers (./devModeWatcher.lazy.ts) are made when a server with a `dev` block first
// starts (its start loaded their code anyway).
import type * as vscode from 'vscode';
import type { ServerManager } from '../../core/host/serverManager';

export function followDevMode(manager: ServerManager, devModeWatcher: (manager: ServerManager) => vscode.Disposable): vscode.Disposable {
  let watcher: vscode.Disposable | undefined;
  const wanted = () => manager.servers().some((s) => s.definition.type === 'stdio' && s.definition.dev && (s.state.kind === 'running' || s.state.kind === 'starting'));
  // Looked at once per tick, however many servers changed in it (each look lists every server).
  let scheduled: NodeJS.Immediate | undefined;
  const subscription = manager.onDidChangeServers(() => {
    scheduled ??= setImmediate(() => {
      scheduled = undefined;
      if (!watcher && wanted()) watcher = devModeWatcher(manager);
    });
  });
  return { dispose: () => (subscription.dispose(), clearImmediate(scheduled), watcher?.dispose()) };
}
