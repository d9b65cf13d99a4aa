// What opens resources in editors (./resourceOpener.lazy.ts, loaded on demand), for the code on the activation path.
import type * as vscode from 'vscode';
import type { ResourceContents } from '../../core/features/resources/resourceContents';

/** A resource to open: its server and URI, and what its listing says about it (to name the document before reading). */
export interface ResourceTarget {
  serverId: string;
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
}

/** An embedded resource as tools and prompts return it (`{ type: 'resource', resource }`), or its `resource`. */
export type EmbeddedResourceLike = { type: 'resource'; resource: ResourceContents } | ResourceContents;

export interface ResourceOpening {
  /** The document that shows a resource, without reading it (reading happens when it is opened). */
  documentUri(serverId: string, target: Pick<ResourceTarget, 'uri' | 'name' | 'mimeType'>): vscode.Uri;
  /** Reads the resource and opens it; undefined when it could not be read (the user is told why). */
  open(target: ResourceTarget, options?: { preview?: boolean }): Promise<vscode.Uri | undefined>;
  /** Opens a `resource_link` a tool or prompt returned. */
  openLink(serverId: string, link: Pick<ResourceTarget, 'uri' | 'name' | 'title' | 'mimeType'>): Promise<vscode.Uri | undefined>;
  /** Opens embedded contents as they came. */
  openEmbedded(serverId: string, embedded: EmbeddedResourceLike): Promise<vscode.Uri>;
  /** Reads a resource, or shows why it cannot be read and resolves to undefined. */
  readOrExplain(target: ResourceTarget): Promise<ResourceContents[] | undefined>;
}
