// The documents behind `mcp-host-resource:` URIs: what each holds (read from its server, handed over just read, or
// embedded in a result), their mtimes (a new one reloads an open editor) and sizes. Built at the first document.
import vscode = require('vscode');
import { renderDocument, type ResourceContents } from '../../core/features/resources/resourceContents';
import { resourceKey, type ResourceLocation } from '../../core/features/resources/resourceLocation';
import type { ResourceService } from '../../core/features/resources/resourceService';

/**
 * The code of a read the server says is of an unknown URI (resourceService's RESOURCE_NOT_FOUND, which every miss is
 * told as): read off the error, since its class lives in the activation bundle, not in this one.
 */
const RESOURCE_NOT_FOUND = -32002;
import type { ResourceDocumentStore, ResourceDocumentsDeps } from './resourceFileSystemProvider';

/** How long contents read to open a document wait for the editor to ask for them. */
const PRIMED_MS = 30_000;
/** How long a restored editor waits for its server to start. */
const SERVER_WAIT_MS = 20_000;
/** Embedded contents kept for documents opened from tool and prompt results (they cannot be read again). */
const MAX_EMBEDDED = 200;

export class ResourceDocuments implements ResourceDocumentStore {
  /** mtime and size per document: a new mtime is what makes VS Code reload an open editor. */
  private readonly stats = new Map<string, { uri: vscode.Uri; location: ResourceLocation; mtime: number; size: number }>();
  /** Contents already read (to open the document) that its first readFile takes instead of reading again. */
  private readonly primed = new Map<string, { contents: ResourceContents[]; timer: NodeJS.Timeout }>();
  private readonly embedded = new Map<string, ResourceContents[]>();
  private nextEmbedded = 1;
  private readonly service: ResourceService;

  constructor(private readonly deps: ResourceDocumentsDeps) {
    this.service = deps.service;
  }

  prime(uri: vscode.Uri, contents: ResourceContents[]): void {
    const key = uri.toString();
    const previous = this.primed.get(key);
    if (previous) clearTimeout(previous.timer);
    this.primed.set(key, { contents, timer: setTimeout(() => this.primed.delete(key), PRIMED_MS) });
    this.touch([key]);
  }

  embed(contents: ResourceContents): string {
    const key = String(this.nextEmbedded++);
    this.embedded.set(key, [contents]);
    for (const old of this.embedded.keys()) {
      if (this.embedded.size <= MAX_EMBEDDED) break;
      this.embedded.delete(old);
    }
    return key;
  }

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
    if (changes.length) this.deps.fire(changes);
  }

  stat(uri: vscode.Uri, location: ResourceLocation): vscode.FileStat {
    const key = uri.toString();
    let stat = this.stats.get(key);
    if (!stat) {
      stat = { uri, location, mtime: Date.now(), size: 0 };
      this.stats.set(key, stat);
    }
    return { type: vscode.FileType.File, ctime: 0, mtime: stat.mtime, size: stat.size, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri, location: ResourceLocation): Promise<Uint8Array> {
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
      if ((e as { code?: unknown } | undefined)?.code === RESOURCE_NOT_FOUND) throw vscode.FileSystemError.FileNotFound(message);
      throw vscode.FileSystemError.Unavailable(message);
    }
  }

  dispose(): void {
    for (const p of this.primed.values()) clearTimeout(p.timer);
    this.primed.clear();
    this.stats.clear();
    this.embedded.clear();
  }
}
