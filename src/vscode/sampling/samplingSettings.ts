// Sampling and elicitation settings, per server. Limits come from the user's own settings; a workspace may only
// tighten them, never loosen them on a server's behalf: it can add servers to a disabled list, lower a number or
// narrow a choice, but not pin models or lift limits. Pure (VS Code's configuration is passed in), so unit-tested in
// plain Node.
import { numericSetting, type NumericSetting, NUMERIC_SETTINGS } from '../../core/config/numericSettings';
import type { ServerDefinition } from '../../core/config/types';
import type { ContextScope, SamplingSettings } from '../../core/protocol/features/sampling/samplingFeature';

/** A setting's value at each level, as VS Code's `WorkspaceConfiguration.inspect` gives it. */
export interface SettingLevels<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** A configuration section, as far as these settings need it (VS Code's `WorkspaceConfiguration` fits). */
export interface SettingsSection {
  inspect<T>(key: string): SettingLevels<T> | undefined;
}

const CONTEXT_SCOPES: ContextScope[] = ['none', 'thisServer', 'allServers'];

/** Whether a `disabledServers` list names this server ("*" names every server). */
function listsServer(list: unknown, definition: Pick<ServerDefinition, 'name'>): boolean {
  return Array.isArray(list) && (list.includes('*') || list.includes(definition.name));
}

function userValue<T>(c: SettingsSection, key: string): { user: T; workspace: T[] } {
  const i = c.inspect<T>(key);
  return {
    user: (i?.globalValue ?? i?.defaultValue) as T,
    workspace: [i?.workspaceValue, i?.workspaceFolderValue].filter((v): v is T => v !== undefined),
  };
}

/** Whether the user's or the workspace's `disabledServers` names this server: a workspace adds, never removes. */
export function disabledFor(c: SettingsSection, definition: Pick<ServerDefinition, 'name'>): boolean {
  const { user, workspace } = userValue<unknown>(c, 'disabledServers');
  return [user, ...workspace].some((list) => listsServer(list, definition));
}

/** The lowest of the user's and the workspace's values, each in the setting's range (an invalid one counts as the default). */
export function tightestNumber(c: SettingsSection, key: string, setting: NumericSetting): number {
  const { user, workspace } = userValue<unknown>(c, key);
  const values = [user, ...workspace].filter((v) => v !== undefined).map((v) => numericSetting(v, setting));
  return values.length ? Math.min(...values) : setting.default;
}

function tightestContext(c: SettingsSection): ContextScope {
  const { user, workspace } = userValue<ContextScope>(c, 'allowedContext');
  const ranks = [user, ...workspace].map((v) => CONTEXT_SCOPES.indexOf(v)).filter((r) => r >= 0);
  return CONTEXT_SCOPES[ranks.length ? Math.min(...ranks) : 0];
}

/** `c` is the `mcpHost.sampling` section. */
export function readSamplingSettings(c: SettingsSection, definition: ServerDefinition): SamplingSettings {
  // Pins only from the user: a workspace pinning a server to a model would choose where your prompts go.
  const models = userValue<unknown>(c, 'models').user;
  const pinned = typeof models === 'object' && models !== null ? (models as Record<string, unknown>)[definition.name] : undefined;
  return {
    enabled: !disabledFor(c, definition),
    rateLimitPerMinute: tightestNumber(c, 'rateLimit', NUMERIC_SETTINGS.samplingRateLimit),
    maxTokens: tightestNumber(c, 'maxTokens', NUMERIC_SETTINGS.samplingMaxTokens),
    pinnedModels: Array.isArray(pinned) ? pinned.filter((p): p is string => typeof p === 'string') : typeof pinned === 'string' ? [pinned] : [],
    allowedContext: tightestContext(c),
  };
}
