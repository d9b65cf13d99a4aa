// Dev mode for server authors (`dev: { watch, debug }` in mcp.json, as in VS Code): a running server restarts when
// files matching its `watch` globs change — debounced, and only that server; one started under a debugger stops when
// the user ends its debug session (./editorDebugger.ts attaches it).
import vscode = require('vscode');
import type { ServerManager } from '../../core/host/serverManager';
import { isAlive } from '../../core/protocol/connection/processTree.lazy';
import { onDebugSessionEndedByUser } from './editorDebugger.lazy';

const DEBOUNCE_MS = 300;


interface Watch {
  key: string;
  watchers: vscode.FileSystemWatcher[];
  timer?: NodeJS.Timeout;
}

export class DevModeWatcher implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly manager: ServerManager) {
    this.subscriptions = [manager.onDidChangeServers(() => this.update()), onDebugSessionEndedByUser(({ serverId }) => this.debugSessionEnded(serverId))];
    this.update();
  }

  /** Its debug session ended while it runs: the server stops too (a process that crashed is the restart policy's). */
  private debugSessionEnded(id: string): void {
    const info = this.manager.servers().find((s) => s.id === id);
    if (!info || (info.state.kind !== 'running' && info.state.kind !== 'starting') || (info.pid !== undefined && !isAlive(info.pid))) return;
    void this.manager.get(id)?.stop('Its debug session ended.');
  }

  private update(): void {
    const wanted = new Map<string, { folder: string; globs: string[] }>();
    for (const s of this.manager.servers()) {
      const raw = s.definition;
      if (raw.type === 'stdio' && raw.dev?.watch.length && s.scope.folderPath) wanted.set(s.id, { folder: s.scope.folderPath, globs: raw.dev.watch });
    }
    for (const [id, w] of this.watches) {
      const want = wanted.get(id);
      if (!want || JSON.stringify(want) !== w.key) this.unwatch(id);
    }
    for (const [id, want] of wanted) {
      if (this.watches.has(id)) continue;
      const w: Watch = { key: JSON.stringify(want), watchers: [] };
      const changed = () => {
        clearTimeout(w.timer);
        w.timer = setTimeout(() => this.restart(id), DEBOUNCE_MS);
      };
      for (const glob of want.globs) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(want.folder), glob));
        watcher.onDidChange(changed);
        watcher.onDidCreate(changed);
        watcher.onDidDelete(changed);
        w.watchers.push(watcher);
      }
      this.watches.set(id, w);
    }
  }

  /** Only a server that runs (or is starting) restarts: a stopped one stays stopped. */
  private restart(id: string): void {
    const info = this.manager.servers().find((s) => s.id === id);
    if (info && (info.state.kind === 'running' || info.state.kind === 'starting')) void this.manager.get(id)?.restart();
  }

  private unwatch(id: string): void {
    const w = this.watches.get(id);
    if (!w) return;
    clearTimeout(w.timer);
    for (const watcher of w.watchers) watcher.dispose();
    this.watches.delete(id);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}
