// "Allow and Restart": the exact rule that allows a denial, written into the mcp.json the server comes from, where
// VS Code keeps it (the file's top-level `sandbox` block), with the file's comments and formatting kept (jsonc-parser's
// edits). Editing the file restarts the server: its definition (and launch plan) changed.
import { applyEdits, modify, parse, type FormattingOptions } from 'jsonc-parser';
import { ruleFor, type SandboxDenial } from '../../config/sandboxDenial';

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
  const tabs = /^\t/m.test(text);
  const formattingOptions: FormattingOptions = { insertSpaces: !tabs, tabSize: tabs ? 1 : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  // Appended to the list as it is (-1: at its end), or the list made with the one rule.
  const edits = list ? modify(text, ['sandbox', group, rule.key, -1], rule.value, { formattingOptions, isArrayInsertion: true }) : modify(text, ['sandbox', group, rule.key], [rule.value], { formattingOptions });
  return applyEdits(text, edits);
}
