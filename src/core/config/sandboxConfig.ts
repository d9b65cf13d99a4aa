// The `sandbox` block of an mcp.json, in VS Code's format: at the top of the file, it applies to every stdio server of
// that file that sets `"sandboxEnabled": true`. Parsed here with its diagnostics; what a confined start may do (these
// rules added to the defaults) is planned in the session layer (protocol/launch/sandboxPolicy.ts).
import type { Node } from 'jsonc-parser';
import { type Diagnostics, members, stringArrayProperty } from './configMembers';

export interface SandboxConfig {
  filesystem: { allowWrite: string[]; denyRead: string[]; denyWrite: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

export const emptySandboxConfig = (): SandboxConfig => ({ filesystem: { allowWrite: [], denyRead: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] } });

const FILESYSTEM_KEYS = ['allowWrite', 'denyRead', 'denyWrite'] as const;
const NETWORK_KEYS = ['allowedDomains', 'deniedDomains'] as const;

/** A domain as the sandbox's proxy matches it: a host name, `*.` for its subdomains, an optional port. No scheme, no path. */
const DOMAIN = /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

/** What a domain entry should have been written as, when it is a URL ("https://api.example.com/x" → "api.example.com"). */
function domainOf(value: string): string | undefined {
  try {
    const host = new URL(value).host;
    return host && DOMAIN.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

function checkPath(node: Node, d: Diagnostics): void {
  const value = node.value as string;
  if (value.trim() === '') d.error('invalid-sandbox-path', node, 'A sandbox path must not be empty.');
  else if (value.includes('\0')) d.error('invalid-sandbox-path', node, 'A sandbox path must not hold a NUL character.');
  else if (!value.startsWith('/') && !value.startsWith('~') && !value.startsWith('${') && !/^[A-Za-z]:[\\/]/.test(value)) {
    d.add('warning', 'relative-sandbox-path', node, `"${value}" is relative: it is taken from the workspace folder. Write it as an absolute path, "~/…" or "\${workspaceFolder}/…".`);
  }
}

function checkDomain(node: Node, d: Diagnostics): void {
  const value = node.value as string;
  if (DOMAIN.test(value)) return;
  const host = domainOf(value);
  d.error('invalid-sandbox-domain', node, host ? `"${value}" is a URL: write only its domain, "${host}".` : `"${value}" is not a domain: write a host name such as "api.example.com", "*.example.com" or "example.com:443".`);
}

function group(node: Node | undefined, what: string, keys: readonly string[], d: Diagnostics, check: (n: Node) => void): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const k of keys) out[k] = [];
  if (!node) return out;
  if (node.type !== 'object') {
    d.wrongType(node, `"sandbox.${what}"`, 'an object');
    return out;
  }
  const m = members(node, d);
  for (const [name, { key }] of m) {
    if (!keys.includes(name)) d.add('warning', 'unknown-property', key, `Property "${name}" is not used in "sandbox.${what}" (it takes ${keys.map((k) => `"${k}"`).join(', ')}); it is ignored.`);
  }
  for (const k of keys) out[k] = stringArrayProperty(m, k, `"sandbox.${what}.${k}"`, d, check) ?? [];
  return out;
}

/** The top-level `sandbox` block; every problem placed on its value. `checkVariables` checks `${input:…}` and the like in paths. */
export function parseSandbox(node: Node, d: Diagnostics, checkVariables: (n: Node) => void): SandboxConfig | undefined {
  if (node.type !== 'object') {
    d.wrongType(node, '"sandbox"', 'an object with "filesystem" and "network"');
    return undefined;
  }
  const m = members(node, d);
  for (const [name, { key }] of m) {
    if (name !== 'filesystem' && name !== 'network') d.add('warning', 'unknown-property', key, `Property "${name}" is not used in "sandbox" (it takes "filesystem" and "network"); it is ignored.`);
  }
  const fs = group(m.get('filesystem')?.value, 'filesystem', FILESYSTEM_KEYS, d, (n) => {
    checkPath(n, d);
    checkVariables(n);
  });
  const net = group(m.get('network')?.value, 'network', NETWORK_KEYS, d, (n) => checkDomain(n, d));
  return {
    filesystem: { allowWrite: fs.allowWrite, denyRead: fs.denyRead, denyWrite: fs.denyWrite },
    network: { allowedDomains: net.allowedDomains, deniedDomains: net.deniedDomains },
  };
}
