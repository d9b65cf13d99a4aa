// The read-only file system behind resource documents (`mcp-host-resource:` URIs). Reading a file reads the resource
// from its server; a change event (an update from the server, or Refresh) makes open editors read it again. What the
// documents hold (./resourceDocuments.lazy.ts) is built at the first document: until then this is the scheme and its
// URIs only.
import vscode = require('vscode');
import type { ResourceContents } from '../../core/features/resources/resourceContents';
import { RESOURCE_SCHEME, fromUriParts, toUriParts, type ResourceLocation } from '../../core/features/resources/resourceLocation';
import type { ResourceService } from '../../core/features/resources/resourceService';

const READ_ONLY = new vscode.MarkdownString('MCP resources are read-only: use **Save As…** on the resource to keep a copy.');

/** What the documents are built with. */
export interface ResourceDocumentsDeps {
  service: ResourceService;
  /** Announces changed documents (their editors read them again). */
  fire(changes: vscode.FileChangeEvent[]): void;
}

/** The documents' contents and stats (./resourceDocuments.lazy.ts). */
export interface ResourceDocumentStore extends vscode.Disposable {
  prime(uri: vscode.Uri, contents: ResourceContents[]): void;
  /** Keeps embedded contents; returns their key. */
  embed(contents: ResourceContents): string;
  changed(serverId: string, uri: string): void;
  stat(uri: vscode.Uri, location: ResourceLocation): vscode.FileStat;
  readFile(uri: vscode.Uri, location: ResourceLocation): Promise<Uint8Array>;
}

export class ResourceFileSystemProvider implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private readonly documents: ResourceDocumentStore;

  constructor(
    private readonly service: ResourceService,
    documents: (deps: ResourceDocumentsDeps) => ResourceDocumentStore,
  ) {
    this.documents = documents({ service, fire: (changes) => this._onDidChangeFile.fire(changes) });
  }

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
    this.documents.prime(uri, contents);
  }

  /** A document for contents that came embedded in a result: served from memory, never read from the server. */
  embed(serverId: string, contents: ResourceContents, fileName: string): vscode.Uri {
    return this.uriFor({ serverId, uri: contents.uri, fileName, embedded: this.documents.embed(contents) });
  }

  /** The resource changed on its server: every document showing it reads it again. */
  changed(serverId: string, uri: string): void {
    this.documents.changed(serverId, uri);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    return this.documents.stat(uri, this.location(uri));
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.documents.readFile(uri, this.location(uri));
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
    this.documents.dispose();
    this._onDidChangeFile.dispose();
  }
}
