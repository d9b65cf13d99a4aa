// Keeps a resource subscribed while an editor shows it (text editors and viewers alike, in any tab group), and turns
// the server's updates into document reloads. Tabs, not text documents: a document lingers after its last editor closes.
import vscode = require('vscode');
import { resourceKey } from '../../core/features/resources/resourceLocation';
import type { ResourceSubscriptions } from '../../core/features/resources/resourceSubscriptions';
import type { ResourceFileSystemProvider } from './resourceFileSystemProvider';

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return undefined;
}

export function trackOpenResources(files: ResourceFileSystemProvider, subscriptions: ResourceSubscriptions): vscode.Disposable {
  const watched = new Map<string, vscode.Disposable>();
  const sync = () => {
    const open = new Map<string, { serverId: string; uri: string }>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const uri = tabUri(tab);
        const location = uri && files.serverIdOf(uri) !== undefined ? files.locationOf(uri) : undefined;
        // Embedded contents came inside a result: there is nothing on the server to follow.
        if (location && location.embedded === undefined) open.set(resourceKey(location.serverId, location.uri), location);
      }
    }
    for (const [key, watch] of watched) {
      if (open.has(key)) continue;
      watch.dispose();
      watched.delete(key);
    }
    for (const [key, { serverId, uri }] of open) if (!watched.has(key)) watched.set(key, subscriptions.watch(serverId, uri));
  };
  const disposables = [
    vscode.window.tabGroups.onDidChangeTabs(sync),
    vscode.window.tabGroups.onDidChangeTabGroups(sync),
    subscriptions.onDidUpdate(({ serverId, uri }) => files.changed(serverId, uri)),
  ];
  sync();
  return new vscode.Disposable(() => {
    for (const d of disposables) d.dispose();
    for (const w of watched.values()) w.dispose();
    watched.clear();
  });
}
