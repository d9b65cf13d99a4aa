// "Allow and Restart": the exact rule that allows a denial, written into the mcp.json the server comes from, where
// VS Code keeps it (the file's top-level `sandbox` block), with the file's comments and formatting kept (jsonc-parser's
// edits). Editing the file restarts the server: its definition (and launch plan) changed. And "Run Confined" in the
// trust question, which writes `"sandboxEnabled": true` into the server's entry the same way.
import { applyEdits, modify, parse, type FormattingOptions } from 'jsonc-parser';
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

/** The file's text with the rule added (once); the text itself when it already holds it or the denial has no rule. */
export function withSandboxRule(text: string, denial: SandboxDenial): string {
  const rule = ruleFor(denial);
  if (!rule) return text;
  const group = rule.key === 'allowWrite' ? 'filesystem' : 'network';
  const current = (parse(text, [], { allowTrailingComma: true }) as { sandbox?: Record<string, Record<string, unknown>> } | undefined)?.sandbox?.[group]?.[rule.key];
  const list = Array.isArray(current) ? current : undefined;
  if (list?.includes(rule.value)) return text;
  const formattingOptions = formattingOf(text);
  // Appended to the list as it is (-1: at its end), or the list made with the one rule.
  const edits = list ? modify(text, ['sandbox', group, rule.key, -1], rule.value, { formattingOptions, isArrayInsertion: true }) : modify(text, ['sandbox', group, rule.key], [rule.value], { formattingOptions });
  return applyEdits(text, edits);
}

/**
 * "Run Confined": the file's text with `"sandboxEnabled": true` in the server's entry (under "servers", or
 * "mcpServers" in a .mcp.json), comments and formatting kept. Throws when the entry is not in the file (any more).
 */
export function withSandboxEnabled(text: string, serverName: string): string {
  const root = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown> | undefined;
  const key = ['servers', 'mcpServers'].find((k) => {
    const servers = root?.[k];
    return !!servers && typeof servers === 'object' && Object.prototype.hasOwnProperty.call(servers, serverName);
  });
  const entry = key && (root![key] as Record<string, unknown>)[serverName];
  if (!key || !entry || typeof entry !== 'object') throw new Error(`the server "${serverName}" is not in the file`);
  if ((entry as { sandboxEnabled?: unknown }).sandboxEnabled === true) return text;
  const formattingOptions = formattingOf(text);
  return applyEdits(text, modify(text, [key, serverName, 'sandboxEnabled'], true, { formattingOptions }));
}
