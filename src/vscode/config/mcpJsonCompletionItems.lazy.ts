// Completion items in mcp.json where a server's name goes: well-known servers, and (once two characters of a name are
// typed) the servers of the MCP registry (`mcpHost.registry.url`) that match it, each inserted as a whole entry (see
// ../../core/protocol/config/serverNameCompletions and registryNameCompletions). Offered only inside a name's quotes or
// on Ctrl+Space, never preselected, so Enter typed for a new line never takes one. A registry that is down, slow or
// answering garbage costs nothing but its items. ../mcpJsonCompletion registers the provider.
import vscode = require('vscode');
import { registryNameCompletions } from '../../core/features/mcpRegistry/registryNameCompletions.lazy';
import { serverNameCompletions, serverNameContext } from '../../core/config/serverNameCompletions.lazy';
import { plainText, truncate } from '../../core/presentation/serverText';
import { RegistryClient } from '../../core/features/mcpRegistry/registryClient';
import type { RegistryEntry } from '../../core/features/mcpRegistry/registryServer';
import { registryUrl } from '../mcpRegistry/registryPick.lazy';

/**
 * How long completion waits for the registry before it shows the well-known servers without it: short, as the list
 * waits for it; the search goes on, and the next key (the list is incomplete) shows what it found.
 */
const REGISTRY_WAIT_MS = 800;
/** Searches answered lately, by registry and text: VS Code asks again at each key while a list is incomplete. */
const recentSearches = new Map<string, { at: number; entries: Promise<RegistryEntry[]> }>();
const RECENT_MS = 60_000;
const MAX_RECENT = 50;

export async function mcpJsonCompletionItems(document: vscode.TextDocument, position: vscode.Position, context: vscode.CompletionContext, token: vscode.CancellationToken): Promise<vscode.CompletionList> {
  const text = document.getText();
  const offset = document.offsetAt(position);
  const invoked = context.triggerKind === vscode.CompletionTriggerKind.Invoke;
  const range = (r: { start: number; end: number }) => new vscode.Range(document.positionAt(r.start), document.positionAt(r.end));
  const items = serverNameCompletions(text, offset, invoked).map((c, i) => {
    const item = new vscode.CompletionItem({ label: c.label, description: 'MCP server' }, vscode.CompletionItemKind.Module);
    item.detail = c.detail;
    item.insertText = new vscode.SnippetString(c.snippet);
    // The snippet is indented for its line already.
    item.keepWhitespace = true;
    item.range = range(c.replace);
    item.filterText = `"${c.label}"`;
    item.sortText = String(i).padStart(3, '0');
    item.preselect = false;
    return item;
  });
  const at = serverNameContext(text, offset, invoked);
  const query = at?.typed.trim() ?? '';
  if (!at || query.length < 2 || !vscode.workspace.getConfiguration('mcpHost').get<boolean>('registry.suggestInMcpJson', true)) return new vscode.CompletionList(items);
  const base = registryUrl();
  const entries = await Promise.race([searchRegistry(base, query), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), REGISTRY_WAIT_MS))]);
  if (token.isCancellationRequested) return new vscode.CompletionList(items, true);
  const found = registryNameCompletions(text, at, entries ?? [], base).map((c, i) => {
    const item = new vscode.CompletionItem({ label: plainText(truncate(c.label, 200)), description: 'MCP Registry' }, vscode.CompletionItemKind.Module);
    item.detail = plainText(truncate(c.detail.replace(/^Command: /, '').replace(/\n/g, ' · '), 300));
    // A plain string is never rendered as Markdown: the registry's words stay inert.
    item.documentation = plainText(truncate([c.server.title, c.server.description, `Version ${c.server.version} from ${base}`, c.server.repository?.url].filter(Boolean).join('\n\n'), 2000));
    item.insertText = new vscode.SnippetString(c.snippet);
    item.keepWhitespace = true;
    item.range = range(c.replace);
    // The registry matched the typed text already: the item always passes VS Code's own filter of what is typed.
    item.filterText = `"${at.typed}${c.label}"`;
    item.sortText = `r${String(i).padStart(3, '0')}`;
    item.preselect = false;
    if (c.inputsEdit) item.additionalTextEdits = [vscode.TextEdit.insert(document.positionAt(c.inputsEdit.offset), c.inputsEdit.text)];
    return item;
  });
  // Incomplete: the next key asks again, with the longer name.
  return new vscode.CompletionList([...items, ...found], true);
}

/** The registry's first page for `query`, remembered a minute; [] when the registry cannot answer. */
function searchRegistry(base: string, query: string): Promise<RegistryEntry[]> {
  const key = `${base}\n${query}`;
  const now = Date.now();
  const recent = recentSearches.get(key);
  if (recent && now - recent.at < RECENT_MS) return recent.entries;
  let entries: Promise<RegistryEntry[]>;
  try {
    entries = new RegistryClient(base)
      .search(query, { limit: 10 })
      .then((page) => page.entries)
      .catch(() => []);
  } catch {
    entries = Promise.resolve([]); // not a registry URL: "MCP: Add Server from Registry…" says so
  }
  recentSearches.set(key, { at: now, entries });
  if (recentSearches.size > MAX_RECENT) recentSearches.delete(recentSearches.keys().next().value!);
  return entries;
}
