// "MCP: Manage Permissions…" and "MCP: Reset Server Trust" as the user reads them. One decision can be kept under
// several keys (trusting a server remembers the plan it runs and its definition as written, each under its own key):
// the list shows it once, revoking it forgets every key, and counts are of decisions and servers, not of keys.
import type { PermissionKind, PermissionRecord } from '../host/permissionStore';
import type { RenderedQuestion } from './trustQuestionText';

export const KIND_TITLES: Record<PermissionKind, string> = {
  'server-trust': 'Server trust',
  tool: 'Tool calls',
  sampling: 'Language model use (sampling)',
  'sampling-review': 'Checking model answers',
  elicitation: 'Questions from servers',
};

const DECISION_WORDS: Record<string, string> = {
  trusted: 'trusted',
  denied: 'not trusted',
  allow: 'allowed',
  deny: 'denied',
  skip: 'not checked',
};

/** One decision as the list shows it, with every record it is kept under. */
export interface PermissionRow {
  kind: PermissionKind;
  /** As servers and workspaces wrote the names in it: the list makes it plain. */
  label: string;
  description: string;
  records: PermissionRecord[];
  /** The newest of its records (ms since epoch). */
  at: number;
}

const decisionWords = (r: PermissionRecord) =>
  r.kind === 'server-trust' && r.decision === 'trusted' && r.confined ? 'trusted to run confined' : (DECISION_WORDS[r.decision] ?? r.decision);

/** The remembered decisions, each once, grouped by kind in the list's order. */
export function permissionRows(records: readonly PermissionRecord[]): PermissionRow[] {
  const rows = new Map<string, PermissionRow>();
  for (const kind of Object.keys(KIND_TITLES) as PermissionKind[])
    for (const r of records) {
      if (r.kind !== kind) continue;
      const description = `${decisionWords(r)} · ${r.scope === 'workspace' ? 'this workspace' : 'everywhere'}`;
      const key = JSON.stringify([r.kind, r.label, description]);
      const row = rows.get(key);
      if (row) {
        row.records.push(r);
        row.at = Math.max(row.at, r.at);
      } else rows.set(key, { kind, label: r.label, description, records: [r], at: r.at });
    }
  return [...rows.values()];
}

/** The list's first item: revokes every decision (counted as the list shows them, not by the keys they are kept under). */
export const revokeAllLabel = (rows: readonly PermissionRow[]): string => `$(trash) Revoke All (${rows.length})`;

/** Servers whose trust decision is remembered (a VS Code command a server's value comes from is not a server). */
export function rememberedServers(records: readonly PermissionRecord[]): number {
  return permissionRows(records.filter((r) => r.kind === 'server-trust' && !r.key.startsWith('command:'))).reduce(
    (names, row) => names.add(row.label),
    new Set<string>(),
  ).size;
}

export interface ResetTrustQuestion {
  /** Servers whose trust (or refusal) is remembered. */
  servers: number;
}

/** Asked before Reset Server Trust forgets anything; the last button is what Escape gives. */
export function resetTrustQuestionText(q: ResetTrustQuestion): RenderedQuestion<boolean> {
  const servers = `${q.servers} MCP server${q.servers === 1 ? '' : 's'}`;
  return {
    message: `Forget whether you trusted ${servers}?`,
    detail: [
      `${servers} will ask again before ${q.servers === 1 ? 'it starts' : 'they start'} next: each shows what it runs and asks whether to trust it. Servers that are running keep running.`,
      'Your other decisions (tool calls, language model use, questions from servers) are kept: MCP Host: Manage Permissions… lists them.',
    ].join('\n\n'),
    buttons: [
      { label: `Forget Trust of ${servers}`, answer: true },
      { label: 'Keep', answer: false },
    ],
  };
}
