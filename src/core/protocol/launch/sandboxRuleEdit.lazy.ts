// "Allow and Restart": the exact rule that allows a denial, written into the mcp.json the server comes from, where
// VS Code keeps it (the file's top-level `sandbox` block), with the file's comments and formatting kept (jsonc-parser's
// edits), one answer after another. Editing the file restarts the server: its definition (and launch plan) changed.
// And "Run Confined" in the trust question, which writes `"sandboxEnabled": true` into the server's entry, and only
// that.
import * as fs from 'fs';
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, type FormattingOptions } from 'jsonc-parser';
import { ruleFor, type SandboxDenial } from '../../config/sandboxDenial';

/** The file's own indentation and line ends, for the edit. */
function formattingOf(text: string): FormattingOptions {
  const tabs = /^\t/m.test(text);
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** The rule in words, e.g. `"api.github.com" in sandbox.network.allowedDomains`; undefined when there is none. */
export function ruleText(denial: SandboxDenial): string | undefined {
  const rule = ruleFor(denial);
  return rule && `${JSON.stringify(rule.value)} in sandbox.${rule.key === 'allowWrite' ? 'filesystem' : 'network'}.${rule.key}`;
}

/**
 * The file's text with the rule added (once); the text itself when it already holds it or the denial has no rule.
 * `section`: where the file's servers and `sandbox` are (a .code-workspace's `settings.mcp`); the root by default.
 */
export function withSandboxRule(text: string, denial: SandboxDenial, section: readonly string[] = []): string {
  const rule = ruleFor(denial);
  if (!rule) return text;
  const group = rule.key === 'allowWrite' ? 'filesystem' : 'network';
  const path = [...section, 'sandbox', group, rule.key];
  const root = parseTree(text, [], { allowTrailingComma: true });
  const current: unknown = root && findNodeAtLocation(root, path) ? getNodeValue(findNodeAtLocation(root, path)!) : undefined;
  const list = Array.isArray(current) ? current : undefined;
  if (list?.includes(rule.value)) return text;
  const formattingOptions = formattingOf(text);
  // Appended to the list as it is (-1: at its end), or the list made with the one rule.
  const edits = list ? modify(text, [...path, -1], rule.value, { formattingOptions, isArrayInsertion: true }) : modify(text, path, [rule.value], { formattingOptions });
  return applyEdits(text, edits);
}

/** The edit of each mcp.json in progress: answers read and write the file one after another, so that none is lost. */
const fileEdits = new Map<string, Promise<unknown>>();

/** "Allow and Restart": the denial's rule added to the mcp.json `file`, after any edit of it still in progress. */
export function addSandboxRule(file: string, denial: SandboxDenial, section: readonly string[] = []): Promise<void> {
  const edit = (fileEdits.get(file) ?? Promise.resolve()).then(async () => {
    const text = await fs.promises.readFile(file, 'utf8');
    const next = withSandboxRule(text, denial, section);
    if (next !== text) await fs.promises.writeFile(file, next);
  });
  const settled = edit.catch(() => undefined);
  fileEdits.set(file, settled);
  void settled.then(() => fileEdits.get(file) === settled && fileEdits.delete(file));
  return edit;
}

/**
 * "Run Confined": the file's text with `"sandboxEnabled": true` in the server's entry (under "servers", or
 * "mcpServers" in a .mcp.json), and nothing else changed: the key goes first in the entry, on its own line when the
 * entry spans lines (as indented as its first key), else on the entry's line; a `false` becomes `true`. Throws when
 * the entry is not in the file (any more).
 */
export function withSandboxEnabled(text: string, serverName: string, section: readonly string[] = []): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const entry = ['servers', 'mcpServers'].map((k) => root && findNodeAtLocation(root, [...section, k, serverName])).find((n) => n !== undefined);
  if (!entry || entry.type !== 'object') throw new Error(`the server "${serverName}" is not in the file`);
  const current = findNodeAtLocation(entry, ['sandboxEnabled']);
  if (current?.value === true) return text;
  if (current) return text.slice(0, current.offset) + 'true' + text.slice(current.offset + current.length);
  const first = entry.children?.[0];
  if (!first) return `${text.slice(0, entry.offset + 1)} "sandboxEnabled": true ${text.slice(entry.offset + 1)}`;
  const lineStart = text.lastIndexOf('\n', first.offset - 1) + 1;
  const before = text.slice(lineStart, first.offset);
  const ownLine = /^[ \t]*$/.test(before) && text.slice(entry.offset, first.offset).includes('\n');
  const insert = ownLine ? `"sandboxEnabled": true,${text.includes('\r\n') ? '\r\n' : '\n'}${before}` : '"sandboxEnabled": true, ';
  return text.slice(0, first.offset) + insert + text.slice(first.offset);
}
