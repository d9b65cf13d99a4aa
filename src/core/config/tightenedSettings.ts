// Settings a workspace may only tighten. Limits come from the user's own settings; a workspace (a cloned repository's
// .vscode/settings.json) may add servers to a disabled list, lower a number or narrow a choice, never loosen them on a
// server's behalf, and settings only the user may set are read from the user's level alone. Pure (VS Code's
// configuration is passed in), so unit-tested in plain Node.
import type { ServerDefinition } from './serverDefinition';
import { numericSetting, type NumericSetting } from './numericSettings';

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

/** The user's value (or the default), and what the workspace and its folder set, for a rule to combine. */
export function userValue<T>(c: SettingsSection, key: string): { user: T; workspace: T[] } {
  const i = c.inspect<T>(key);
  return {
    user: (i?.globalValue ?? i?.defaultValue) as T,
    workspace: [i?.workspaceValue, i?.workspaceFolderValue].filter((v): v is T => v !== undefined),
  };
}

/** Whether a `disabledServers` list names this server ("*" names every server). */
function listsServer(list: unknown, definition: Pick<ServerDefinition, 'name'>): boolean {
  return Array.isArray(list) && (list.includes('*') || list.includes(definition.name));
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
