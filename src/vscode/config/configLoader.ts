// Finds, watches and applies every MCP configuration file of the window: each workspace folder's .vscode/mcp.json,
// .mcp.json (`mcpServers`, shared with Claude Code, Cursor and Copilot CLI) and .github/mcp.json (read by Copilot's
// agent), and the user's own: the profile's mcp.json and Copilot CLI's ~/.copilot/mcp-config.json. Each file is a
// group of its own. Problems go to the Problems panel at their exact range; a broken file keeps its last good servers.
// A name defined in several files of a folder (or of the user's) runs once, from the first of them in that order; the
// later entries get a warning.
import { promises as fs } from 'fs';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import vscode = require('vscode');
import { FOLDER_FILES, userFiles, workspaceFileConfig, type ConfigFile } from './configUris';
import { positionAt, withLastGoodServers } from '../../core/config/lastGoodConfig';
import { parseMcpConfig, type ConfigFormat } from '../../core/config/mcpConfigParser';
import type { ConfigDiagnostic, ConfigScope, ParsedConfig, RawServerEntry } from '../../core/config/serverDefinition';
import { rootsFromFolders } from '../../core/host/roots';
import { SerialQueue } from '../../core/common/serialQueue';
import type { ServerManager } from '../../core/host/serverManager';
import { plainText } from '../../core/presentation/serverText';

/**
 * A watcher's events for one write come within a few ms of each other; a text already applied is skipped and a write
 * read half done keeps the last good servers until the next event, so a short wait is enough (300 ms was most of the
 * time from saving 50 servers to the view listing them).
 */
const DEBOUNCE_MS = 50;

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
  format: ConfigFormat;
  /** The file as a message names it. */
  where: string;
  /** Where in the file its servers are (a .code-workspace's `settings.mcp`). */
  section?: readonly string[];
  watcher: vscode.FileSystemWatcher;
  lastGood?: RawServerEntry[];
  problem?: ConfigProblem;
  timer?: NodeJS.Timeout;
  /** Loads run one at a time, so two quick saves never apply out of order. */
  queue: SerialQueue;
  /** The files before this one in its group (its folder's, or the user's): their names are not run from this one. */
  shadowedBy: string[];
  /** The next file of its group, read again after each load of this one (the names it may run depend on this one's). */
  next?: string;
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
    /** The folder of VS Code's profile (its settings.json, its mcp.json). */
    readonly vscodeProfile: vscode.Uri,
  ) {}

  /** Loads every file and starts watching; resolves once all are applied. */
  async start(): Promise<void> {
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders((e) => void this.onFoldersChanged(e)));
    // VS Code's own checks of a file with problems change its count in the Problems panel: the view follows.
    this.disposables.push(vscode.languages.onDidChangeDiagnostics(() => this.problems().length && this._onDidChangeProblems.fire()));
    // A save in VS Code is read at once: the file watcher tells of it 100-200 ms later (a text already applied is skipped then).
    this.disposables.push(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        const saved = [...this.files.values()].find((f) => f.uri.toString() === doc.uri.toString());
        if (saved) void this.load(saved, true);
      }),
    );
    this.updateRoots();
    const loads = (vscode.workspace.workspaceFolders ?? []).map((f) => this.watchFolder(f));
    loads.push(
      this.watchGroup(userFiles(this.userConfigUri, this.vscodeProfile), (file) => ({
        kind: 'user',
        key: file.key,
        label: file.label,
        configPath: fsPathOf(file.uri),
        ...dialectOf(file.format),
        ...(file.section ? { configSection: file.section } : {}),
        ...(file.ownFile ? {} : { readByVsCode: true }),
      })),
    );
    // A saved (not untitled) multi-root workspace: its own settings.mcp, a group of their own.
    const workspaceFile = vscode.workspace.workspaceFile;
    if (workspaceFile?.scheme === 'file') {
      const file = workspaceFileConfig(workspaceFile);
      const first = vscode.workspace.workspaceFolders?.[0];
      loads.push(
        this.watchGroup([file], () => ({
          kind: 'workspace',
          key: file.key,
          label: file.label,
          folderPath: first?.uri.scheme === 'file' ? first.uri.fsPath : undefined,
          configPath: workspaceFile.fsPath,
          configSection: file.section,
          readByVsCode: true,
        })),
      );
    }
    await Promise.all(loads);
  }

  /** A folder's files, in order: each one knows the names the ones before it define. */
  private watchFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    return this.watchGroup(
      FOLDER_FILES.filter((file) => file.read?.() ?? true).map((file) => file.of(folder)),
      (file) => this.folderScope(folder, file),
    );
  }

  private async watchGroup(files: ConfigFile[], scopeOf: (file: ConfigFile) => ConfigScope): Promise<void> {
    const keys = files.map((f) => scopeOf(f).key);
    for (const [i, file] of files.entries()) {
      await this.watch(scopeOf(file), file, keys.slice(0, i), keys[i + 1]);
    }
  }

  private folderScope(folder: vscode.WorkspaceFolder, file: ConfigFile = FOLDER_FILES[0].of(folder)): ConfigScope {
    return {
      kind: 'workspace',
      key: file.key,
      label: file.label,
      folderPath: folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
      configPath: fsPathOf(file.uri),
      ...dialectOf(file.format),
      ...(file.section ? { configSection: file.section } : {}),
      readByVsCode: true,
    };
  }

  private async onFoldersChanged(e: vscode.WorkspaceFoldersChangeEvent) {
    this.updateRoots();
    this.renameFolders();
    await Promise.all([...e.removed.flatMap((f) => FOLDER_FILES.map((file) => this.unwatch(file.of(f).key))), ...e.added.map((f) => this.watchFolder(f))]);
  }

  /**
   * A renamed folder keeps its URI, and VS Code reports it neither added nor removed: its files' scopes take the new
   * name, and so do their servers (running ones keep running) and problems, whether or not the files parse.
   */
  private renameFolders(): void {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const first = this.files.get(FOLDER_FILES[0].of(folder).key);
      if (!first || first.scope.label === folder.name) continue;
      for (const file of FOLDER_FILES.map((f) => f.of(folder))) {
        const watched = this.files.get(file.key);
        if (!watched) continue;
        const scope = { ...this.folderScope(folder, file), ...dialectOf(watched.scope.dialect ?? file.format) };
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

  private watch(scope: ConfigScope, { uri, format, where, watch, section }: ConfigFile, shadowedBy: string[], next: string | undefined): Promise<void> {
    const watcher = vscode.workspace.createFileSystemWatcher(watch);
    const file: WatchedFile = { scope, uri, format, where, section, watcher, queue: new SerialQueue(), shadowedBy, next };
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

  /** Every file read, with its group's label (tests find the user's files of the profile they run in). */
  watchedFiles(): { label: string; path: string }[] {
    return [...this.files.values()].map((f) => ({ label: f.scope.label, path: fsPathOf(f.uri) }));
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
      void vscode.window.showErrorMessage(`MCP Host: could not apply ${vscode.workspace.asRelativePath(file.uri)}: ${plainText(e.message)}`);
      return true;
    });
    // The next file of the group depends on the names this one defines: read again, and applied again if they may have changed.
    const next = file.next ? this.files.get(file.next) : undefined;
    return next ? loaded.then((applied) => this.load(next, skipUnchanged && !applied)) : loaded.then(() => undefined);
  }

  /** Whether the file was applied (false: it was skipped, unchanged, or is no longer watched). */
  private async apply(file: WatchedFile, skipUnchanged: boolean): Promise<boolean> {
    if (this.files.get(file.scope.key) !== file) return false;
    let text: string;
    try {
      text = await readText(file.uri);
    } catch {
      // No file (or it was deleted): the scope defines no servers.
      return this.clear(file, undefined);
    }
    if (skipUnchanged && text === file.appliedText) return false;
    file.appliedText = undefined;
    const part = file.section ? sectionOf(text, file.section) : { text, offset: 0 };
    // No such section (a .code-workspace without settings.mcp): no servers.
    if (!part) return this.clear(file, text);
    const parsed = parseMcpConfig(part.text, { format: file.format });
    if (part.offset) for (const d of parsed.diagnostics) d.span = { offset: d.span.offset + part.offset, length: d.span.length };
    // .github/mcp.json is written both ways: its variables are read as its own keys say.
    if (parsed.dialect !== (file.scope.dialect ?? 'vscode')) file.scope = { ...file.scope, ...dialectOf(parsed.dialect) };
    const earlier = file.shadowedBy.map((key) => this.files.get(key)).filter((f): f is WatchedFile => !!f);
    shadow(parsed, earlier.flatMap((f) => (f.lastGood ?? []).map((s) => ({ name: s.name, where: f.where }))));
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

  /** The file defines no servers (it is gone, or has no section for them): its scope is removed. */
  private async clear(file: WatchedFile, text: string | undefined): Promise<boolean> {
    file.appliedText = text;
    file.lastGood = undefined;
    this.setDiagnostics(file.uri, []);
    this.setProblem(file, undefined);
    await this.manager.removeScope(file.scope.key);
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

/** Leaves out the servers an earlier file of the group defines too, with a warning on each. */
function shadow(parsed: ParsedConfig, earlier: { name: string; where: string }[]): void {
  parsed.servers = parsed.servers.filter((s) => {
    const first = earlier.find((e) => e.name === s.name);
    if (!first) return true;
    parsed.diagnostics.push({
      message: `Server "${s.name}" is also defined in ${first.where}, which is the one that runs; this definition is ignored.`,
      span: s.nameSpan,
      severity: 'warning',
      code: 'duplicate-name',
    });
    return false;
  });
  parsed.diagnostics.sort((a, b) => a.span.offset - b.span.offset);
}

/** The text of the value at `section` of a JSON file, and where it begins; undefined when there is none. */
function sectionOf(text: string, section: readonly string[]): { text: string; offset: number } | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && findNodeAtLocation(root, [...section]);
  return node && { text: text.slice(node.offset, node.offset + node.length), offset: node.offset };
}

const dialectOf = (format: ConfigFormat | ConfigScope['dialect']): Pick<ConfigScope, 'dialect'> => (format === 'mcpServers' ? { dialect: 'mcpServers' } : {});

const fsPathOf = (uri: vscode.Uri): string => (uri.scheme === 'file' ? uri.fsPath : uri.toString());

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
