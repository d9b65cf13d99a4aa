// Wires "MCP: Add Server from Registry…", "MCP: Update Servers from Registry…" and "MCP: Import Servers…":
// the browser itself loads with the session layer on first use, so the activation bundle carries only this.
import vscode = require('vscode');
import { CommandIds } from '../../core/common/commandIds';
import { parseMcpConfig } from '../../core/config/mcpConfigParser';
import { referencedInputIds } from '../../core/config/variables';
import type { ConfigLoader } from '../config/configLoader';
import type { HostDialogs } from '../dialogs/dialogRouter';
import type { RegistryBrowser, RegistryPickState } from './registryBrowser.lazy';
import type { LoadSessionLayer } from '../sessionLayer';
import type { StoredInputs } from '../config/storedInputs';

export function registerAddFromRegistry(deps: { configLoader: ConfigLoader; inputs: StoredInputs; dialogs: HostDialogs; session: LoadSessionLayer }): {
  disposables: vscode.Disposable[];
  /** The registry pick on screen, for tests. */
  registryPick(): RegistryPickState | undefined;
} {
  let browser: RegistryBrowser | undefined;
  const get = () => (browser ??= new (deps.session().RegistryBrowser)({ ...deps, config: { parse: (text) => parseMcpConfig(text), referencedInputIds } }));
  return {
    disposables: [
      vscode.commands.registerCommand(CommandIds.addFromRegistry, () => get().addFromRegistry()),
      vscode.commands.registerCommand(CommandIds.importServers, () => get().importServers()),
      vscode.commands.registerCommand(CommandIds.updateFromRegistry, () => get().updateServers()),
    ],
    registryPick: () => browser?.state,
  };
}
