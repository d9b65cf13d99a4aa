// Servers an mcp.json says came from a registry (`gallery` and `version`, as VS Code and MCP Host write them), for
// "MCP: Update Servers from Registry…". Only the registry the user configured is asked: a workspace's file names its
// `gallery` itself, and must not make MCP Host contact another address.
import { findNodeAtLocation, parseTree, type ParseError } from 'jsonc-parser';
import { registryBaseUrl } from './registryClient';

/** The most entries looked up in one check (each is one request to the registry). */
export const MAX_UPDATE_CHECKS = 50;

export interface RegistryOrigin {
  /** The key under `servers` (or `mcpServers`): the registry name, as an install writes it (a renamed entry is not found there). */
  name: string;
  version: string;
}

const sameRegistry = (a: string, b: string): boolean => {
  try {
    return registryBaseUrl(a) === registryBaseUrl(b);
  } catch {
    return false;
  }
};

/** The entries of `text` installed from `registry`, at most MAX_UPDATE_CHECKS; none for a file that does not parse. */
export function registryOrigins(text: string, registry: string): RegistryOrigin[] {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  // VS Code's format lists them under `servers`; the one Claude Code and Copilot CLI share, under `mcpServers`.
  const servers = root && !errors.length ? (findNodeAtLocation(root, ['servers']) ?? findNodeAtLocation(root, ['mcpServers'])) : undefined;
  if (servers?.type !== 'object') return [];
  const found: RegistryOrigin[] = [];
  for (const property of servers.children ?? []) {
    const [keyNode, value] = property.children ?? [];
    if (typeof keyNode?.value !== 'string' || value?.type !== 'object') continue;
    const gallery = findNodeAtLocation(value, ['gallery'])?.value;
    const version = findNodeAtLocation(value, ['version'])?.value;
    if (typeof gallery !== 'string' || typeof version !== 'string' || !sameRegistry(gallery, registry)) continue;
    found.push({ name: keyNode.value, version });
    if (found.length >= MAX_UPDATE_CHECKS) break;
  }
  return found;
}
