// Sampling settings, per server. Limits come from the user's own settings; a workspace may only tighten them, never
// loosen them on a server's behalf.
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/types';
import type { ContextScope, SamplingSettings } from '../../core/features/sampling/samplingFeature';

const CONTEXT_SCOPES: ContextScope[] = ['none', 'thisServer', 'allServers'];

/** Whether a `disabledServers` list names this server ("*" names every server). */
export function listsServer(list: unknown, definition: Pick<ServerDefinition, 'name'>): boolean {
  return Array.isArray(list) && (list.includes('*') || list.includes(definition.name));
}

function userValue<T>(c: vscode.WorkspaceConfiguration, key: string): { user: T; workspace: T[] } {
  const i = c.inspect<T>(key);
  return {
    user: (i?.globalValue ?? i?.defaultValue) as T,
    workspace: [i?.workspaceValue, i?.workspaceFolderValue].filter((v): v is T => v !== undefined),
  };
}

function tightestNumber(c: vscode.WorkspaceConfiguration, key: string, fallback: number): number {
  const { user, workspace } = userValue<number>(c, key);
  const values = [user, ...workspace].filter((v) => typeof v === 'number' && v >= 1);
  return values.length ? Math.floor(Math.min(...values)) : fallback;
}

function tightestContext(c: vscode.WorkspaceConfiguration): ContextScope {
  const { user, workspace } = userValue<ContextScope>(c, 'allowedContext');
  const ranks = [user, ...workspace].map((v) => CONTEXT_SCOPES.indexOf(v)).filter((r) => r >= 0);
  return CONTEXT_SCOPES[ranks.length ? Math.min(...ranks) : 0];
}

export function readSamplingSettings(definition: ServerDefinition): SamplingSettings {
  const c = vscode.workspace.getConfiguration('mcpHost.sampling');
  const pinned = c.get<Record<string, unknown>>('models', {})[definition.name];
  return {
    enabled: !listsServer(c.get('disabledServers'), definition),
    rateLimitPerMinute: tightestNumber(c, 'rateLimit', 10),
    maxTokens: tightestNumber(c, 'maxTokens', 4096),
    pinnedModels: Array.isArray(pinned) ? pinned.filter((p): p is string => typeof p === 'string') : typeof pinned === 'string' ? [pinned] : [],
    allowedContext: tightestContext(c),
  };
}
