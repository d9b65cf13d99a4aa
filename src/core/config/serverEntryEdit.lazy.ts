// Edits of one server's entry in its file, as a person would make them: the rest of the file (comments, formatting,
// other servers) unchanged. Loaded with the command that makes the edit.
import { findNodeAtLocation, parseTree } from 'jsonc-parser';

/** The file's text without the entry's `"disabled"` key (Enable Server). `section`: where the file keeps its servers (a settings file's `mcp`). */
export function withoutDisabled(text: string, serverName: string, section: readonly string[] = []): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const entry = ['servers', 'mcpServers'].map((key) => root && findNodeAtLocation(root, [...section, key, serverName])).find((n) => n?.type === 'object');
  if (!entry) throw new Error(`the server "${serverName}" is not in the file`);
  const properties = entry.children ?? [];
  const at = properties.findIndex((p) => p.children?.[0]?.value === 'disabled');
  if (at < 0) return text;
  const property = properties[at];
  // With the comma that joined it to its neighbour: the one before it, or (when it is first) the one after it.
  const [from, to] = at > 0 ? [properties[at - 1].offset + properties[at - 1].length, property.offset + property.length] : at + 1 < properties.length ? [property.offset, properties[at + 1].offset] : [property.offset, property.offset + property.length];
  return text.slice(0, from) + text.slice(to);
}
