// Finds, watches and applies every mcp.json of the window: one per workspace folder (.vscode/mcp.json) and the
// user's own. Problems go to the Problems panel at their exact range; a broken file keeps its last good servers.
import * as vscode from 'vscode';
import { positionAt, withLastGoodServers } from '../core/config/lastGoodConfig';
import { parseMcpConfig } from '../core/config/mcpConfigParser';
import type { ConfigDiagnostic, ConfigScope, RawServerEntry } from '../core/config/types';
import { rootsFromFolders } from '../core/host/roots';
import { SerialQueue } from '../core/common/serialQueue';
import type { ServerRegistry } from '../core/host/serverRegistry';
import { plainText } from '../core/presentation/serverText';

const DEBOUNCE_MS = 300;

/** A file with errors, as the Servers view shows it on its folder. */
export interface ConfigProblem {
  scope: ConfigScope;
  uri: vscode.Uri;
  /** Errors (warnings are not counted). */
  count: number;
  /** Unreadable JSON: the servers it last defined correctly keep running. */
  syntaxBroken: boolean;
  /** Where the first error is. */
  range: vscode.Range;
}

interface WatchedFile {
  scope: ConfigScope;
  uri: vscode.Uri;
  watcher: vscode.FileSystemWatcher;
  lastGood?: RawServerEntry[];
  problem?: ConfigProblem;
  timer?: NodeJS.Timeout;
  /** Loads run one at a time, so two quick saves never apply out of order. */
  queue: SerialQueue;
}

export function workspaceConfigUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

export class ConfigLoader implements vscode.Disposable {
  private readonly files = new Map<string, WatchedFile>();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mcp');
  private readonly _onDidChangeProblems = new vscode.EventEmitter<void>();
  readonly onDidChangeProblems = this._onDidChangeProblems.event;
  private readonly disposables: vscode.Disposable[] = [this.diagnostics, this._onDidChangeProblems];

  constructor(
    private readonly registry: ServerRegistry,
    readonly userConfigUri: vscode.Uri,
  ) {}

  /** Loads every file and starts watching; resolves once all are applied. */
  async start(): Promise<void> {
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders((e) => void this.onFoldersChanged(e)));
    this.updateRoots();
    const loads = (vscode.workspace.workspaceFolders ?? []).map((f) => this.watch(this.folderScope(f), workspaceConfigUri(f)));
    loads.push(
      this.watch({ kind: 'user', key: 'user', label: 'User', configPath: this.userConfigUri.fsPath }, this.userConfigUri),
    );
    await Promise.all(loads);
  }

  private folderScope(folder: vscode.WorkspaceFolder): ConfigScope {
    return {
      kind: 'workspace',
      key: folder.uri.toString(),
      label: folder.name,
      folderPath: folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
      configPath: workspaceConfigUri(folder).fsPath,
    };
  }

  private async onFoldersChanged(e: vscode.WorkspaceFoldersChangeEvent) {
    this.updateRoots();
    await Promise.all([
      ...e.removed.map((f) => this.unwatch(f.uri.toString())),
      ...e.added.map((f) => this.watch(this.folderScope(f), workspaceConfigUri(f))),
    ]);
  }

  private updateRoots() {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      name: f.name,
      fsPath: f.uri.scheme === 'file' ? f.uri.fsPath : undefined,
    }));
    this.registry.setRoots(rootsFromFolders(folders));
  }

  private watch(scope: ConfigScope, uri: vscode.Uri): Promise<void> {
    const base = vscode.Uri.joinPath(uri, '..');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, 'mcp.json'));
    const file: WatchedFile = { scope, uri, watcher, queue: new SerialQueue() };
    this.files.set(scope.key, file);
    const schedule = () => {
      clearTimeout(file.timer);
      file.timer = setTimeout(() => void this.load(file), DEBOUNCE_MS);
    };
    watcher.onDidCreate(schedule);
    watcher.onDidChange(schedule);
    watcher.onDidDelete(schedule);
    return this.load(file);
  }

  private async unwatch(scopeKey: string) {
    const file = this.files.get(scopeKey);
    if (!file) return;
    this.files.delete(scopeKey);
    clearTimeout(file.timer);
    file.watcher.dispose();
    this.diagnostics.delete(file.uri);
    this.setProblem(file, undefined);
    // After any load in progress, so it cannot bring the folder's servers back once they are removed.
    await file.queue.run(() => this.registry.removeScope(scopeKey));
  }

  /** The files with errors, in the order of their folders. */
  problems(): ConfigProblem[] {
    return [...this.files.values()].map((f) => f.problem).filter((p): p is ConfigProblem => !!p);
  }

  private setProblem(file: WatchedFile, problem: ConfigProblem | undefined) {
    if (!problem && !file.problem) return;
    file.problem = problem;
    this._onDidChangeProblems.fire();
  }

  /** Re-reads a scope's file now (used by commands and tests that cannot wait for the watcher). */
  reload(scopeKey?: string): Promise<void> {
    const targets = scopeKey ? [this.files.get(scopeKey)].filter((f): f is WatchedFile => !!f) : [...this.files.values()];
    return Promise.all(targets.map((f) => this.load(f))).then(() => undefined);
  }

  private load(file: WatchedFile): Promise<void> {
    return file.queue.run(() => this.apply(file)).catch((e: Error) => {
      void vscode.window.showErrorMessage(`MCP: could not apply ${vscode.workspace.asRelativePath(file.uri)}: ${plainText(e.message)}`);
    });
  }

  private async apply(file: WatchedFile): Promise<void> {
    if (this.files.get(file.scope.key) !== file) return;
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file.uri));
    } catch {
      // No file (or it was deleted): the scope defines no servers.
      file.lastGood = undefined;
      this.diagnostics.delete(file.uri);
      this.setProblem(file, undefined);
      await this.registry.removeScope(file.scope.key);
      return;
    }
    const parsed = parseMcpConfig(text);
    const diagnostics = parsed.diagnostics.map((d) => toDiagnostic(text, d));
    this.diagnostics.set(file.uri, diagnostics);
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    this.setProblem(
      file,
      errors.length ? { scope: file.scope, uri: file.uri, count: errors.length, syntaxBroken: parsed.syntaxBroken, range: errors[0].range } : undefined,
    );
    // Unreadable JSON changes nothing: what the file last defined correctly keeps running until it is fixed.
    if (parsed.syntaxBroken) return;
    const servers = withLastGoodServers(file.lastGood, parsed);
    file.lastGood = servers;
    await this.registry.updateScope(file.scope, servers, parsed.inputs);
  }

  dispose(): void {
    for (const f of this.files.values()) {
      clearTimeout(f.timer);
      f.watcher.dispose();
    }
    this.files.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function toDiagnostic(text: string, d: ConfigDiagnostic): vscode.Diagnostic {
  const start = positionAt(text, d.span.offset);
  const end = positionAt(text, d.span.offset + d.span.length);
  const diag = new vscode.Diagnostic(
    new vscode.Range(start.line, start.character, end.line, end.character),
    d.message,
    d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diag.source = 'MCP';
  diag.code = d.code;
  return diag;
}
