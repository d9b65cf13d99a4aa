// The read-only file system behind resource documents (`mcp-host-resource:` URIs). Reading a file reads the resource
// from its server; a change event (an update from the server, or Refresh) makes open editors read it again.
import vscode = require('vscode');
import { renderDocument, type ResourceContents } from '../../core/features/resources/resourceContents';
import { RESOURCE_SCHEME, fromUriParts, resourceKey, toUriParts, type ResourceLocation } from '../../core/features/resources/resourceLocation';
import { RESOURCE_NOT_FOUND, ResourceReadError, type ResourceService } from '../../core/features/resources/resourceService';

/** How long contents read to open a document wait for the editor to ask for them. */
const PRIMED_MS = 30_000;
/** How long a restored editor waits for its server to start. */
const SERVER_WAIT_MS = 20_000;
/** Embedded contents kept for documents opened from tool and prompt results (they cannot be read again). */
const MAX_EMBEDDED = 200;

const READ_ONLY = new vscode.MarkdownString('MCP resources are read-only: use **Save As…** on the resource to keep a copy.');

export class ResourceFileSystemProvider implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this._onDidChangeFile.event;
  /** mtime and size per document: a new mtime is what makes VS Code reload an open editor. */
  private readonly stats = new Map<string, { uri: vscode.Uri; location: ResourceLocation; mtime: number; size: number }>();
  /** Contents already read (to open the document) that its first readFile takes instead of reading again. */
  private readonly primed = new Map<string, { contents: ResourceContents[]; timer: NodeJS.Timeout }>();
  private readonly embedded = new Map<string, ResourceContents[]>();
  private nextEmbedded = 1;

  constructor(private readonly service: ResourceService) {}

  static register(provider: ResourceFileSystemProvider, scheme: string): vscode.Disposable {
    return vscode.workspace.registerFileSystemProvider(scheme, provider, { isCaseSensitive: true, isReadonly: READ_ONLY });
  }

  uriFor(location: ResourceLocation): vscode.Uri {
    return vscode.Uri.from(toUriParts(location, this.service.serverName(location.serverId)));
  }

  locationOf(uri: vscode.Uri): ResourceLocation | undefined {
    return fromUriParts({ scheme: uri.scheme, authority: uri.authority, path: uri.path, query: uri.query });
  }

  /** The server a resource document (or any URI of this scheme) belongs to. */
  serverIdOf(uri: vscode.Uri): string | undefined {
    return uri.scheme === RESOURCE_SCHEME ? this.locationOf(uri)?.serverId : undefined;
  }

  private location(uri: vscode.Uri): ResourceLocation {
    const location = this.locationOf(uri);
    if (!location) throw vscode.FileSystemError.FileNotFound(uri);
    return location;
  }

  /** Hands contents just read to the document's next readFile, and reloads the document if it is already open. */
  prime(uri: vscode.Uri, contents: ResourceContents[]): void {
    const key = uri.toString();
    const previous = this.primed.get(key);
    if (previous) clearTimeout(previous.timer);
    this.primed.set(key, { contents, timer: setTimeout(() => this.primed.delete(key), PRIMED_MS) });
    this.touch([key]);
  }

  /** A document for contents that came embedded in a result: served from memory, never read from the server. */
  embed(serverId: string, contents: ResourceContents, fileName: string): vscode.Uri {
    const key = String(this.nextEmbedded++);
    this.embedded.set(key, [contents]);
    for (const old of this.embedded.keys()) {
      if (this.embedded.size <= MAX_EMBEDDED) break;
      this.embedded.delete(old);
    }
    return this.uriFor({ serverId, uri: contents.uri, fileName, embedded: key });
  }

  /** The resource changed on its server: every document showing it reads it again. */
  changed(serverId: string, uri: string): void {
    const key = resourceKey(serverId, uri);
    const docs = [...this.stats].filter(([, s]) => s.location.embedded === undefined && resourceKey(s.location.serverId, s.location.uri) === key);
    this.touch(docs.map(([doc]) => doc));
  }

  /** New mtimes (VS Code reloads a document only when its mtime changed) and one change event. */
  private touch(docs: string[]) {
    const changes: vscode.FileChangeEvent[] = [];
    for (const doc of docs) {
      const stat = this.stats.get(doc);
      if (!stat) continue;
      stat.mtime = Math.max(Date.now(), stat.mtime + 1);
      changes.push({ type: vscode.FileChangeType.Changed, uri: stat.uri });
    }
    if (changes.length) this._onDidChangeFile.fire(changes);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const location = this.location(uri);
    const key = uri.toString();
    let stat = this.stats.get(key);
    if (!stat) {
      stat = { uri, location, mtime: Date.now(), size: 0 };
      this.stats.set(key, stat);
    }
    return { type: vscode.FileType.File, ctime: 0, mtime: stat.mtime, size: stat.size, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = this.location(uri);
    const bytes = renderDocument(await this.contents(uri, location), location.fileName);
    const stat = this.stats.get(uri.toString());
    if (stat) stat.size = bytes.length;
    else this.stats.set(uri.toString(), { uri, location, mtime: Date.now(), size: bytes.length });
    return bytes;
  }

  private async contents(uri: vscode.Uri, location: ResourceLocation): Promise<ResourceContents[]> {
    if (location.embedded !== undefined) {
      const embedded = this.embedded.get(location.embedded);
      if (!embedded) throw vscode.FileSystemError.Unavailable('This embedded resource is no longer held: open it again from where it was shown.');
      return embedded;
    }
    const primed = this.primed.get(uri.toString());
    if (primed) {
      clearTimeout(primed.timer);
      this.primed.delete(uri.toString());
      return primed.contents;
    }
    try {
      await this.service.whenRunning(location.serverId, SERVER_WAIT_MS);
      return await this.service.read(location.serverId, location.uri);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof ResourceReadError && e.code === RESOURCE_NOT_FOUND) throw vscode.FileSystemError.FileNotFound(message);
      throw vscode.FileSystemError.Unavailable(message);
    }
  }

  watch(): vscode.Disposable {
    // Changes are announced for every document this provider has served, watched or not.
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY.value);
  }

  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY.value);
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY.value);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(READ_ONLY.value);
  }

  dispose(): void {
    for (const p of this.primed.values()) clearTimeout(p.timer);
    this.primed.clear();
    this.stats.clear();
    this.embedded.clear();
    this._onDidChangeFile.dispose();
  }
}
