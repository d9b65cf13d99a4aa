// The `sandbox` block of an mcp.json, in VS Code's format: at the top of the file, it applies to every stdio server of
// that file that sets `"sandboxEnabled": true`. Parsed here with its diagnostics (kept small: this loads on
// activation); what a confined start may do (these rules added to the defaults) is planned on demand
// (protocol/launch/sandboxPolicy.ts).
import type { Node } from 'jsonc-parser';
import { type Diagnostics, members, stringArrayProperty } from './configMembers';

export interface SandboxConfig {
  filesystem: { allowWrite: string[]; denyRead: string[]; denyWrite: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

export const emptySandboxConfig = (): SandboxConfig => ({ filesystem: { allowWrite: [], denyRead: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] } });

/** A domain as the sandbox's proxy matches it: a host name, `*.` for its subdomains, an optional port. */
const DOMAIN = /^(\*\.)?[\w-]+(\.[\w-]+)*(:\d{1,5})?$/;

/** Each group's keys, in the order the schema lists them. */
const GROUPS = { filesystem: ['allowWrite', 'denyRead', 'denyWrite'], network: ['allowedDomains', 'deniedDomains'] } as const;

/** A domain entry that is not one (a URL, a path): the proxy would never match it. Paths are checked when the start is planned. */
function checkDomain(n: Node, d: Diagnostics): void {
  if (!DOMAIN.test(n.value as string)) d.error('invalid-sandbox-domain', n, `"${n.value}" is not a domain such as "api.example.com" or "*.example.com" (no scheme, no path).`);
}

function unknownKeys(m: Map<string, { key: Node }>, where: string, keys: readonly string[], d: Diagnostics): void {
  for (const [name, { key }] of m) if (!keys.includes(name)) d.add('warning', 'unknown-property', key, `Property "${name}" is not used in "${where}"; it is ignored.`);
}

/**
 * The top-level `sandbox` block; every problem placed on its value. Paths may start with `~/`, `${workspaceFolder}` or
 * `${userHome}` (resolved when the start is planned); other variables are refused then.
 */
export function parseSandbox(node: Node, d: Diagnostics): SandboxConfig | undefined {
  if (node.type !== 'object') return void d.wrongType(node, '"sandbox"', 'an object');
  const config = emptySandboxConfig();
  const m = members(node, d);
  unknownKeys(m, 'sandbox', Object.keys(GROUPS), d);
  for (const [group, keys] of Object.entries(GROUPS)) {
    const g = m.get(group)?.value;
    if (!g) continue;
    if (g.type !== 'object') {
      d.wrongType(g, `"sandbox.${group}"`, 'an object');
      continue;
    }
    const gm = members(g, d);
    unknownKeys(gm, `sandbox.${group}`, keys, d);
    const target = config[group as keyof SandboxConfig] as Record<string, string[]>;
    for (const k of keys) target[k] = stringArrayProperty(gm, k, `"sandbox.${group}.${k}"`, d, group === 'network' ? (n) => checkDomain(n, d) : undefined) ?? [];
  }
  return config;
}
