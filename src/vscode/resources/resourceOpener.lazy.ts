// Opens resources in editors: from the Resources view, from templates, and from the `resource_link` and embedded
// `resource` contents that tools and prompts return anywhere in the extension. One way in, one document per resource.
// Loaded on demand (a resource is opened once a server runs); its contract is ./resourceOpening.
import vscode = require('vscode');
import { documentFileName, type ResourceContents } from '../../core/features/resources/resourceContents';
import { fileNameFor } from '../../core/features/resources/resourceLocation';
import type { ResourceService } from '../../core/features/resources/resourceService';
import { plainText } from '../../core/presentation/serverText';
import type { ResourceFileSystemProvider } from './resourceFileSystemProvider';
import { CommandIds } from '../../core/common/commandIds';
import type { EmbeddedResourceLike, ResourceOpening, ResourceTarget } from './resourceOpening';

export class ResourceOpener implements ResourceOpening {
  constructor(
    private readonly service: ResourceService,
    private readonly files: ResourceFileSystemProvider,
  ) {}

  /** The document that shows a resource, without reading it (reading happens when it is opened). */
  documentUri(serverId: string, target: Pick<ResourceTarget, 'uri' | 'name' | 'mimeType'>): vscode.Uri {
    return this.files.uriFor({ serverId, uri: target.uri, fileName: fileNameFor(target.uri, target.mimeType, target.name) });
  }

  /**
   * Reads the resource and opens it. A read error is shown as a message (with the server's log one click away), never
   * as an empty editor. Resolves to the document's URI, or undefined when it could not be read.
   */
  async open(target: ResourceTarget, options: { preview?: boolean } = {}): Promise<vscode.Uri | undefined> {
    const contents = await this.readOrExplain(target);
    if (!contents) return undefined;
    const fileName = documentFileName(target.uri, contents, target);
    const uri = this.files.uriFor({ serverId: target.serverId, uri: target.uri, fileName });
    this.files.prime(uri, contents);
    await vscode.commands.executeCommand('vscode.open', uri, { preview: options.preview ?? true });
    return uri;
  }

  /** Opens a `resource_link` a tool or prompt returned, through the same documents as the Resources view. */
  openLink(serverId: string, link: Pick<ResourceTarget, 'uri' | 'name' | 'title' | 'mimeType'>): Promise<vscode.Uri | undefined> {
    return this.open({ serverId, ...link });
  }

  /** Opens embedded contents as they came: they may not be readable from the server, so they are not read again. */
  async openEmbedded(serverId: string, embedded: EmbeddedResourceLike): Promise<vscode.Uri> {
    const contents = 'type' in embedded && embedded.type === 'resource' ? embedded.resource : (embedded as ResourceContents);
    const uri = this.files.embed(serverId, contents, documentFileName(contents.uri, [contents]));
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
    return uri;
  }

  /** Reads a resource, or shows why it cannot be read and resolves to undefined. */
  async readOrExplain(target: ResourceTarget): Promise<ResourceContents[] | undefined> {
    try {
      return await this.service.read(target.serverId, target.uri);
    } catch (e) {
      const what = target.title ?? target.name ?? target.uri;
      const showOutput = 'Show Output';
      void vscode.window
        .showErrorMessage(`Cannot read "${plainText(what)}" from ${plainText(this.service.serverName(target.serverId))}: ${plainText((e as Error).message)}`, showOutput)
        .then((choice) => choice === showOutput && vscode.commands.executeCommand(CommandIds.showOutput, target.serverId));
      return undefined;
    }
  }
}
