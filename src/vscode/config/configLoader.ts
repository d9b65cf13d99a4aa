// Finds, watches and applies every mcp.json of the window: one per workspace folder (.vscode/mcp.json), the portable
// .mcp.json at a folder's root (`mcpServers`, shared with other tools), and the user's own. Problems go to the Problems
// panel at their exact range; a broken file keeps its last good servers. A name in both of a folder's files runs once,
// from .vscode/mcp.json; the .mcp.json entry gets a warning.
import { promises as fs } from 'fs';
import vscode = require('vscode');
import { portableConfigUri, workspaceConfigUri } from './configUris';
import { positionAt, withLastGoodServers } from '../../core/config/lastGoodConfig';
import { parseMcpConfig } from '../../core/config/mcpConfigParser';
import type { ConfigDiagnostic, ConfigScope, ParsedConfig, RawServerEntry } from '../../core/config/serverDefinition';
import { rootsFromFolders } from '../../core/host/roots';
import { SerialQueue } from '../../core/common/serialQueue';
import type { ServerManager } from '../../core/host/serverManager';
import { plainText } from '../../core/presentation/serverText';

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
  /** A folder's .mcp.json: read as `mcpServers`; its names also in `shadowedBy` (the folder's .vscode/mcp.json) are not run. */
  portable?: { shadowedBy: string };
  /** A folder's .vscode/mcp.json: the .mcp.json re-read after each of its loads. */
  portableSibling?: string;
  /** The text last applied: a watcher's event for a file whose text did not change applies nothing again. */
  appliedText?: string;
}

export class ConfigLoader implements vscode.Disposable {
  private readonly files = new Map<string, WatchedFile>();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mcp');
  private readonly _onDidChangeProblems = new vscode.EventEmitter<void>();
  readonly onDidChangeProblems = this._onDidChangeProblems.event;
  private readonly disposables: vscode.Disposable[] = [this.diagnostics, this._onDidChangeProblems];

  constructor(
    private readonly manager: ServerManager,
    readonly userConfigUri: vscode.Uri,
  ) {}

  /** Loads every file and starts watching; resolves once all are applied. */
  async start(): Promise<void> {
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders((e) => void this.onFoldersChanged(e)));
    this.updateRoots();
    const loads = (vscode.workspace.workspaceFolders ?? []).map((f) => this.watchFolder(f));
    loads.push(
      this.watch({ kind: 'user', key: 'user', label: 'User', configPath: this.userConfigUri.fsPath }, this.userConfigUri),
    );
    await Promise.all(loads);
  }

  /** A folder's .vscode/mcp.json, then its .mcp.json (which knows the names the first one defines). */
  private async watchFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    const scope = this.folderScope(folder);
    const portable = this.portableScope(folder);
    await this.watch(scope, workspaceConfigUri(folder), { portableSibling: portable.key });
    await this.watch(portable, portableConfigUri(folder), { portable: { shadowedBy: scope.key } });
  }

  private portableScope(folder: vscode.WorkspaceFolder): ConfigScope {
    const uri = portableConfigUri(folder);
    return { ...this.folderScope(folder), key: uri.toString(), label: `${folder.name} (.mcp.json)`, configPath: uri.scheme === 'file' ? uri.fsPath : uri.toString(), dialect: 'mcpServers' };
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
    this.renameFolders();
    await Promise.all([
      ...e.removed.flatMap((f) => [this.unwatch(f.uri.toString()), this.unwatch(portableConfigUri(f).toString())]),
      ...e.added.map((f) => this.watchFolder(f)),
    ]);
  }

  /**
   * A renamed folder keeps its URI, and VS Code reports it neither added nor removed: its files' scopes take the new
   * name, and so do their servers (running ones keep running) and problems, whether or not the files parse.
   */
  private renameFolders(): void {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const file = this.files.get(folder.uri.toString());
      if (!file || file.scope.label === folder.name) continue;
      const portable = this.files.get(portableConfigUri(folder).toString());
      for (const [watched, scope] of [
        [file, this.folderScope(folder)],
        [portable, this.portableScope(folder)],
      ] as const) {
        if (!watched) continue;
        watched.scope = scope;
        this.manager.renameScope(scope);
        if (watched.problem) this.setProblem(watched, { ...watched.problem, scope });
      }
    }
  }

  private updateRoots() {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      name: f.name,
      fsPath: f.uri.scheme === 'file' ? f.uri.fsPath : undefined,
    }));
    this.manager.setRoots(rootsFromFolders(folders));
  }

  private watch(scope: ConfigScope, uri: vscode.Uri, kind: Pick<WatchedFile, 'portable' | 'portableSibling'> = {}): Promise<void> {
    const base = vscode.Uri.joinPath(uri, '..');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, uri.path.slice(uri.path.lastIndexOf('/') + 1)));
    const file: WatchedFile = { scope, uri, watcher, queue: new SerialQueue(), ...kind };
    this.files.set(scope.key, file);
    const schedule = () => {
      clearTimeout(file.timer);
      file.timer = setTimeout(() => void this.load(file, true), DEBOUNCE_MS);
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
    this.setDiagnostics(file.uri, []);
    this.setProblem(file, undefined);
    // After any load in progress, so it cannot bring the folder's servers back once they are removed.
    await file.queue.run(() => this.manager.removeScope(scopeKey));
  }

  /**
   * A file's problems in the Problems view. None over none is not said again: each change of the collection is a
   * message to the workbench (problem counts, decorations) and an event for every extension, at each save of a file
   * without problems.
   */
  private setDiagnostics(uri: vscode.Uri, diagnostics: vscode.Diagnostic[]) {
    if (diagnostics.length) this.diagnostics.set(uri, diagnostics);
    else if (this.diagnostics.has(uri)) this.diagnostics.delete(uri);
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

  /**
   * Reads and applies the file. With `skipUnchanged` (a watcher's event), a text already applied is left as it is:
   * editors and tools save a file without changing it, and one save can bring several events.
   */
  private load(file: WatchedFile, skipUnchanged = false): Promise<void> {
    const loaded = file.queue.run(() => this.apply(file, skipUnchanged)).catch((e: Error) => {
      void vscode.window.showErrorMessage(`MCP: could not apply ${vscode.workspace.asRelativePath(file.uri)}: ${plainText(e.message)}`);
      return true;
    });
    // The folder's .mcp.json depends on the names this file defines: read again, and applied again if they may have changed.
    const sibling = file.portableSibling ? this.files.get(file.portableSibling) : undefined;
    return sibling ? loaded.then((applied) => this.load(sibling, skipUnchanged && !applied)) : loaded.then(() => undefined);
  }

  /** Whether the file was applied (false: it was skipped, unchanged, or is no longer watched). */
  private async apply(file: WatchedFile, skipUnchanged: boolean): Promise<boolean> {
    if (this.files.get(file.scope.key) !== file) return false;
    let text: string;
    try {
      text = await readText(file.uri);
    } catch {
      // No file (or it was deleted): the scope defines no servers.
      file.appliedText = undefined;
      file.lastGood = undefined;
      this.setDiagnostics(file.uri, []);
      this.setProblem(file, undefined);
      await this.manager.removeScope(file.scope.key);
      return true;
    }
    if (skipUnchanged && text === file.appliedText) return false;
    file.appliedText = undefined;
    const parsed = parseMcpConfig(text, { portable: !!file.portable });
    if (file.portable) shadow(parsed, new Set((this.files.get(file.portable.shadowedBy)?.lastGood ?? []).map((s) => s.name)));
    const diagnostics = parsed.diagnostics.map((d) => toDiagnostic(text, d));
    this.setDiagnostics(file.uri, diagnostics);
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    this.setProblem(
      file,
      errors.length ? { scope: file.scope, uri: file.uri, count: errors.length, syntaxBroken: parsed.syntaxBroken, range: errors[0].range } : undefined,
    );
    // Unreadable JSON changes nothing: what the file last defined correctly keeps running until it is fixed.
    if (parsed.syntaxBroken) {
      file.appliedText = text;
      return true;
    }
    const servers = withLastGoodServers(file.lastGood, parsed);
    file.lastGood = servers;
    await this.manager.updateScope(file.scope, servers, parsed.inputs);
    file.appliedText = text;
    return true;
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

/** Leaves out the servers of a .mcp.json that the folder's .vscode/mcp.json defines too, with a warning on each. */
function shadow(parsed: ParsedConfig, names: Set<string>): void {
  parsed.servers = parsed.servers.filter((s) => {
    if (!names.has(s.name)) return true;
    parsed.diagnostics.push({
      message: `Server "${s.name}" is also defined in .vscode/mcp.json, which is the one that runs; this definition is ignored.`,
      span: s.nameSpan,
      severity: 'warning',
      code: 'duplicate-name',
    });
    return false;
  });
  parsed.diagnostics.sort((a, b) => a.span.offset - b.span.offset);
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
  // A syntax error's code would only repeat "syntax" beside VS Code's own JSON error.
  if (d.code !== 'syntax') diag.code = d.code;
  return diag;
}

/**
 * A config file's text. Read with Node when it is a file of this machine: VS Code's `workspace.fs` first asks the
 * workbench to activate the scheme's providers, a round trip through a window that may be busy drawing, before each
 * read; other schemes (a virtual workspace) go through it.
 */
async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(uri.scheme === 'file' ? await fs.readFile(uri.fsPath) : await vscode.workspace.fs.readFile(uri));
}
