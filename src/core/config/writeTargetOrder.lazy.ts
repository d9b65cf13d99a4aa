// The order in which the files a server can be written to are offered: the kind the user picked last first, else
// the format the user's VS Code writes (from 1.140 on, a folder's .mcp.json and ~/.copilot/mcp-config.json; before,
// .vscode/mcp.json and the user's mcp.json); a workspace's files before the user's. Pure; the VS Code side is
// src/vscode/config/writeTargets.lazy.ts, which keeps the choice in global state.
import type { VariableDialect } from './serverDefinition';

/** A file's kind: whose it is, and its format. */
export interface TargetKind {
  scope: 'workspace' | 'user';
  format: VariableDialect;
}

/** The first VS Code whose Add Server writes the mcpServers files. */
export const FIRST_MCPSERVERS_VSCODE = [1, 140] as const;

/** The format VS Code `version` writes new servers in. */
export function vscodeWrites(version: string): VariableDialect {
  const [major, minor] = version.split('.').map((n) => parseInt(n, 10));
  const [firstMajor, firstMinor] = FIRST_MCPSERVERS_VSCODE;
  return major > firstMajor || (major === firstMajor && minor >= firstMinor) ? 'mcpServers' : 'vscode';
}

/** A remembered choice as global state holds it, or undefined when it is not one (an older or damaged value). */
export function rememberedKind(value: unknown): TargetKind | undefined {
  const v = value as Partial<TargetKind> | undefined;
  const scopeOk = v?.scope === 'workspace' || v?.scope === 'user';
  const formatOk = v?.format === 'vscode' || v?.format === 'mcpServers';
  return scopeOk && formatOk ? { scope: v.scope!, format: v.format! } : undefined;
}

/** The format offered first: the one picked last, else the one VS Code `version` writes. */
export const preferredFormat = (last: TargetKind | undefined, version: string): VariableDialect => last?.format ?? vscodeWrites(version);

/**
 * `targets` in the order a pick offers them: the kind picked last first; then the workspace's before the user's,
 * each with the preferred format first; otherwise as given (a folder's files stay with their folder).
 */
export function orderTargets<T extends TargetKind>(targets: readonly T[], last: TargetKind | undefined, version: string): T[] {
  const format = preferredFormat(last, version);
  const rank = (t: T) => (last && t.scope === last.scope && t.format === last.format ? 0 : 8) + (t.scope === 'workspace' ? 0 : 4) + (t.format === format ? 0 : 2);
  return targets
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map(({ t }) => t);
}
