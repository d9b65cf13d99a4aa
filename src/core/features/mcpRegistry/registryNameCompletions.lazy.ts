// Completion where a server's name goes in mcp.json, from an MCP Registry: each search result the host can run becomes
// a whole entry, written as "MCP: Add Server from Registry…" writes it (the mapping of serverJsonMapping: npm → npx,
// pypi → uvx, oci → docker, remotes → http/sse; secrets and required values as `${input:…}`, asked at the first start),
// with the inputs it needs added to the file's "inputs" by the same completion. In an mcpServers file, which has no
// inputs, only the servers that ask for none, written as that format writes them. Registry text is server text: the
// caller shows it through the presentation module. Pure; the VS Code side is src/vscode/config/mcpJsonCompletionItems.lazy.ts.
import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import { describeEntry } from './describeEntry';
import { inputJson } from '../../config/mcpJsonWriter';
import type { RegistryEntry, RegistryServer } from './registryServer';
import { planInstall } from './serverJsonMapping';
import { entrySnippet, type ServerNameContext } from '../../config/serverNameCompletions.lazy';
import { translateEntry } from '../../config/configMigration.lazy';

export interface RegistryNameCompletion {
  /** The registry name, also the entry's key. */
  label: string;
  /** What it runs, values masked. */
  detail: string;
  server: RegistryServer;
  snippet: string;
  replace: { start: number; end: number };
  /** The inputs the entry uses, added to the file's "inputs" (none when all are declared already). */
  inputsEdit?: { offset: number; text: string };
}

/** Registry results as completions at `at`; those the host cannot run, or whose inputs cannot be placed, are left out. */
export function registryNameCompletions(text: string, at: ServerNameContext, entries: RegistryEntry[], registryUrl: string): RegistryNameCompletion[] {
  const completions: RegistryNameCompletion[] = [];
  for (const entry of entries) {
    if (!entry.ok || at.existing.has(entry.server.name)) continue;
    let plan;
    try {
      plan = planInstall(entry.server, registryUrl);
    } catch {
      continue; // nothing of it runs here (a malformed or unsupported entry): the browser says why, completion stays quiet
    }
    let entryText: object = plan.entry;
    if (at.format === 'mcpServers') {
      const translated = plan.inputs.length ? undefined : translateEntry(plan.entry, 'vscode', 'mcpServers', 'an mcpServers file');
      if (!translated?.ok) continue;
      entryText = translated.entry;
    }
    const inputsEdit = plan.inputs.length ? inputsEditOf(text, plan.inputs.map(inputJson)) : undefined;
    if (inputsEdit === null) continue;
    completions.push({
      label: plan.name,
      detail: describeEntry(plan.entry),
      server: entry.server,
      snippet: entrySnippet(plan.name, entryText, at.indent) + at.comma,
      replace: at.replace,
      ...(inputsEdit ? { inputsEdit } : {}),
    });
  }
  return completions;
}

/**
 * The text that declares `inputs` the file does not declare yet: appended to its "inputs" array, or a new "inputs"
 * member first in the root object. Undefined when every one is declared; null when the file is too broken to say where.
 */
function inputsEditOf(text: string, inputs: Record<string, unknown>[]): { offset: number; text: string } | undefined | null {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (root?.type !== 'object') return null;
  const array = findNodeAtLocation(root, ['inputs']);
  if (array && array.type !== 'array') return null;
  const declared = new Set((array?.children ?? []).map((c) => (getNodeValue(c) as { id?: unknown } | undefined)?.id));
  const missing = inputs.filter((i) => !declared.has(i.id));
  if (!missing.length) return undefined;
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  if (!array) {
    const items = missing.map((i) => `${unit}${unit}${JSON.stringify(i)}`).join(',\n');
    return { offset: root.offset + 1, text: `\n${unit}"inputs": [\n${items}\n${unit}],` };
  }
  const last = array.children?.at(-1);
  if (!last) return { offset: array.offset + 1, text: missing.map((i) => JSON.stringify(i)).join(', ') };
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  return { offset: last.offset + last.length, text: missing.map((i) => `,\n${indent}${JSON.stringify(i)}`).join('') };
}
