// The registry pick's items and the registry it searches.
import vscode = require('vscode');
import { firstLine } from '../../core/presentation/serverText';
import type { ImportCandidate } from '../../core/config/foreignConfigs';
import type { RegistryFailureAction } from '../../core/presentation/registryFailure';
import { DEFAULT_REGISTRY_URL } from '../../core/features/mcpRegistry/registryClient';
import type { RegistryEntry, RegistryServer } from '../../core/features/mcpRegistry/registryServer';
import { installOptions, type InstallOption } from '../../core/features/mcpRegistry/serverJsonMapping';
import type { WriteTarget } from '../config/writeTargets.lazy';

export const SEARCH_DEBOUNCE_MS = 300;
export const PAGE_SIZE = 20;

export interface Item extends vscode.QuickPickItem {
  entry?: RegistryEntry;
  candidate?: ImportCandidate;
  more?: boolean;
  option?: InstallOption;
  target?: WriteTarget;
  update?: RegistryUpdate;
  /** A server of a file to migrate, or why it stays. */
  server?: { name: string; reason?: string };
  /** Which file's servers move to which. */
  direction?: { from: WriteTarget; to: WriteTarget };
  /** A row shown when the registry cannot be used: what choosing it does. */
  action?: RegistryFailureAction;
}

export function registryUrl(): string {
  // Only the user's (or an administrator's) own value: a workspace must not send searches elsewhere.
  const setting = vscode.workspace.getConfiguration('mcpHost').inspect<string>('registry.url');
  return setting?.globalValue || setting?.defaultValue || DEFAULT_REGISTRY_URL;
}

export const serverSummary = (s: RegistryServer): string =>
  [
    firstLine(s.description),
    ...installOptions(s).map((o) => o.label),
    ...(s.repository ? [s.repository.url] : []),
  ]
    .filter(Boolean)
    .join(' · ');

export type { ConfigModel } from '../../core/config/foreignConfigs';

/** A newer version of an installed server, and the entry it replaces. */
export interface RegistryUpdate {
  server: RegistryServer;
  from: string;
  target: WriteTarget;
  key: string;
}
