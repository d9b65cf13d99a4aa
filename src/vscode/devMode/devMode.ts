// Dev mode (`dev.watch`): its file watchers (./devModeWatcher.lazy.ts) are made when a server with a `dev` block first
// starts (its start loaded their code anyway).
import type * as vscode from 'vscode';
import type { ServerManager } from '../../core/host/serverManager';

export function followDevMode(manager: ServerManager, devModeWatcher: (manager: ServerManager) => vscode.Disposable): vscode.Disposable {
  let watcher: vscode.Disposable | undefined;
  // Only the servers that changed, read in place: a snapshot of every server at each of the hundreds of changes 50
  // starts fire was most of what the host allocated for them.
  const startsDev = (id: string) => {
    const server = manager.get(id);
    const definition = server?.entry.server;
    return definition?.type === 'stdio' && !!definition.dev && (server!.state.kind === 'running' || server!.state.kind === 'starting');
  };
  let scheduled: NodeJS.Immediate | undefined;
  const subscription = manager.onDidChangeServers((ids) => {
    if (watcher || scheduled || !ids.some(startsDev)) return;
    scheduled = setImmediate(() => {
      scheduled = undefined;
      watcher ??= devModeWatcher(manager);
    });
  });
  return { dispose: () => (subscription.dispose(), clearImmediate(scheduled), watcher?.dispose()) };
}
