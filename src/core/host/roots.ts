// Workspace folders as MCP roots. Servers run where the extension host runs, so roots are that machine's
// `file://` URIs, whatever scheme the editor shows the folder under.
import { pathToFileURL } from 'url';
import type { RootInfo } from './hostPorts';

export interface FolderLike {
  name: string;
  /** The folder's path on the extension host's machine; undefined for virtual folders (no root for those). */
  fsPath: string | undefined;
}

export function rootsFromFolders(folders: readonly FolderLike[]): RootInfo[] {
  const roots: RootInfo[] = [];
  const seen = new Set<string>();
  for (const f of folders) {
    if (!f.fsPath) continue;
    const uri = pathToFileURL(f.fsPath).href;
    if (seen.has(uri)) continue;
    seen.add(uri);
    roots.push({ uri, name: f.name });
  }
  return roots;
}
