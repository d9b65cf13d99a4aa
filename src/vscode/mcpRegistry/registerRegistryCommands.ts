// Wires the commands that write server entries: "MCP Host: Add Server from Registry…", "MCP Host: Update Servers
// from Registry…", "MCP Host: Import Servers…" and "MCP Host: Migrate Configuration…". The browser itself
// (./registryBrowser.lazy.ts) loads on first use, so the activation bundle carries only this.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import { parseMcpConfig } from '../../core/config/mcpConfigParser';
import { referencedInputIds } from '../../core/config/variables';
import type { ConfigLoader } from '../config/configLoader';
import type { HostDialogs } from '../dialogs/dialogRouter';
import type { StoredInputs } from '../config/storedInputs';
import { builtPart } from '../../core/common/lazy';
import type { ConfigModel } from '../../core/config/foreignConfigs';
import type { FirstStartMarks } from '../../core/host/firstStartMarks';

/** The pick on screen, for tests: they cannot type or read the quick input, so they set its value. */
export interface RegistryPickState {
  step: 'search' | 'option' | 'target' | 'import' | 'update' | 'direction' | 'migrate';
  title: string;
  value: string;
  busy: boolean;
  /** Each item as `label — description — detail`. */
  items: string[];
  active?: string;
  placeholder: string;
  /** The items checked (a pick of several). */
  selected: string[];
  setValue(value: string): void;
}

export interface RegistryInstallResult {
  uri: vscode.Uri;
  name: string;
  replaced: boolean;
}

export interface RegistryBrowserDeps {
  configLoader: ConfigLoader;
  inputs: StoredInputs;
  dialogs: HostDialogs;
  config: ConfigModel;
  /** Global state: where the user last chose to write a server. */
  state: vscode.Memento;
  /** Entries written into the user's files ask the trust question at their first start (the user saw a preview only). */
  firstStarts: Pick<FirstStartMarks, 'mark' | 'has'>;
}

/** What "MCP Host: Migrate Configuration…" did: the servers moved, and those that stayed with the reason. */
export interface MigrationResult {
  from: vscode.Uri;
  to: vscode.Uri;
  moved: string[];
  stayed: { name: string; reason: string }[];
  /** What the user was told. */
  message: string;
}

/** The three commands' flows (./registryBrowser.lazy.ts). */
export interface RegistryBrowser {
  /** The pick on screen, if any. */
  readonly state: RegistryPickState | undefined;
  addFromRegistry(): Promise<RegistryInstallResult | undefined>;
  updateServers(): Promise<RegistryInstallResult | undefined>;
  importServers(): Promise<{ uri: vscode.Uri; imported: string[]; skipped: string[] } | undefined>;
  migrateConfiguration(): Promise<MigrationResult | undefined>;
}

export function registerRegistryCommands(deps: {
  configLoader: ConfigLoader;
  inputs: StoredInputs;
  dialogs: HostDialogs;
  state: vscode.Memento;
  firstStarts: Pick<FirstStartMarks, 'mark' | 'has'>;
  registryBrowser(deps: RegistryBrowserDeps): RegistryBrowser;
}): {
  disposables: vscode.Disposable[];
  /** The registry pick on screen, for tests. */
  registryPick(): RegistryPickState | undefined;
} {
  const browser = deps.registryBrowser({ ...deps, config: { parse: (text, format) => parseMcpConfig(text, { format }), referencedInputIds } });
  return {
    disposables: [
      vscode.commands.registerCommand(CommandIds.addFromRegistry, () => browser.addFromRegistry()),
      vscode.commands.registerCommand(CommandIds.importServers, () => browser.importServers()),
      vscode.commands.registerCommand(CommandIds.updateFromRegistry, () => browser.updateServers()),
      vscode.commands.registerCommand(CommandIds.migrateConfiguration, () => browser.migrateConfiguration()),
    ],
    registryPick: () => builtPart(browser)?.state,
  };
}
