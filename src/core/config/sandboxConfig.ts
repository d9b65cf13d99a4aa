// The `sandbox` block of an mcp.json, in VS Code's format: at the top of the file, it applies to every stdio server of
// that file that sets `"sandboxEnabled": true`. Parsed here with its diagnostics (kept small: this loads on
// activation); what a confined start may do (these rules added to the defaults) is planned on demand
// (protocol/launch/sandboxPolicy.ts).
import type { Node } from 'jsonc-parser';
import { isIP } from 'net';
import { type Diagnostics, members, stringArrayProperty } from './configMembers';

export interface SandboxConfig {
  filesystem: { allowWrite: string[]; denyRead: string[]; denyWrite: string[] };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

export const emptySandboxConfig = (): SandboxConfig => ({ filesystem: { allowWrite: [], denyRead: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] } });

/** The file's block and a server's own, each list the two joined (in that order, once each); undefined when neither is there. */
export function mergeSandbox(file: SandboxConfig | undefined, own: SandboxConfig | undefined): SandboxConfig | undefined {
  if (!file || !own) return file ?? own;
  const join = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  const fs = { allowWrite: join(file.filesystem.allowWrite, own.filesystem.allowWrite), denyRead: join(file.filesystem.denyRead, own.filesystem.denyRead), denyWrite: join(file.filesystem.denyWrite, own.filesystem.denyWrite) };
  return { filesystem: fs, network: { allowedDomains: join(file.network.allowedDomains, own.network.allowedDomains), deniedDomains: join(file.network.deniedDomains, own.network.deniedDomains) } };
}

/** A host and its optional port; the host has no colon unless it is an IPv6 literal in brackets. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]{2,45}\]|[^:[\]]{1,253})(?::([1-9]\d{0,4}))?$/;
/** A name with at least one dot (the runtime refuses `example`, and `*.com`: too broad). */
const DOTTED_NAME = /^[\w-]{1,63}(\.[\w-]{1,63}){1,126}$/;

/**
 * A domain entry as the sandbox runtime accepts it (its own check, the same rules): a name with a dot, `localhost`,
 * `*.` before a name with a dot, an IP literal (IPv6 in brackets), each with an optional port 1–65535; in
 * `deniedDomains` also `*`. An entry it refuses would keep the server from starting, so it is refused here first.
 */
export function isSandboxDomain(entry: string, denied = false): boolean {
  const m = HOST_PORT.exec(entry);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65535)) return false;
  const host = m[1];
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6;
  if (host === 'localhost' || (denied && host === '*')) return true;
  return DOTTED_NAME.test(host.startsWith('*.') ? host.slice(2) : host);
}

/**
 * Whether an `allowedDomains` entry names this machine: its ports are then reachable through the sandbox's proxy (the
 * server's own loopback is not this machine's). `port`: the one port it names; undefined: every port.
 */
export function loopbackEntry(entry: string): { port: number | undefined } | undefined {
  const m = HOST_PORT.exec(entry);
  if (!m) return undefined;
  const host = m[1].toLowerCase();
  const loopback = host === 'localhost' || host === '[::1]' || host === '0.0.0.0' || (isIP(host) === 4 && host.startsWith('127.'));
  return loopback ? { port: m[2] === undefined ? undefined : Number(m[2]) } : undefined;
}

/** Each group's keys, in the order the schema lists them. */
const GROUPS = { filesystem: ['allowWrite', 'denyRead', 'denyWrite'], network: ['allowedDomains', 'deniedDomains'] } as const;

/** A domain entry the runtime refuses (a URL, a path, `*.com`): the server would not start. Paths are checked when the start is planned. */
function checkDomain(n: Node, d: Diagnostics, denied: boolean): void {
  if (!isSandboxDomain(n.value as string, denied)) d.error('invalid-sandbox-domain', n, `"${n.value}" is not a domain such as "api.example.com", "*.example.com" or "localhost:6379" (no scheme, no path; a wildcard needs a name with a dot after it).`);
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
    for (const k of keys) target[k] = stringArrayProperty(gm, k, `"sandbox.${group}.${k}"`, d, group === 'network' ? (n) => checkDomain(n, d, k === 'deniedDomains') : undefined) ?? [];
  }
  return config;
}
