// A settings section whose values and levels (`get`, `inspect`) are read once per key and kept until a setting of the
// section changes.
// Each server's start reads the sampling and elicitation settings of that server; VS Code's `inspect` walks every
// language override of every configuration level each time, so servers starting together inspected the same few keys
// hundreds of times. The values do not depend on the server: one read each.
import vscode = require('vscode');
import type { SettingLevels, SettingsSection } from '../core/config/tightenedSettings';

export interface CachedSection extends SettingsSection, vscode.Disposable {
  /** The value in effect. */
  get<T>(key: string): T | undefined;
  /** Empties the cache now: after this extension's own update, whose change event may come later. */
  forget(): void;
}

/** `section` (e.g. `mcpHost.sampling`), read through a cache that any change of the section's settings empties. */
export function cachedSection(section: string): CachedSection {
  const levels = new Map<string, SettingLevels<unknown> | undefined>();
  const values = new Map<string, unknown>();
  const forget = () => {
    levels.clear();
    values.clear();
  };
  const watching = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(section)) forget();
  });
  return {
    inspect<T>(key: string): SettingLevels<T> | undefined {
      if (!levels.has(key)) levels.set(key, vscode.workspace.getConfiguration(section).inspect<unknown>(key));
      return levels.get(key) as SettingLevels<T> | undefined;
    },
    get<T>(key: string): T | undefined {
      if (!values.has(key)) values.set(key, vscode.workspace.getConfiguration(section).get<unknown>(key));
      return values.get(key) as T | undefined;
    },
    forget,
    dispose: () => watching.dispose(),
  };
}
