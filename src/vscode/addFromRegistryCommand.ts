// Wires "MCP: Add Server from Registry…" (mcpHost.addFromRegistry) and "MCP: Import Servers…" (mcpHost.importServers):
// the browser itself loads with the host bundle on first use, so the activation bundle carries only this.
import * as vscode from 'vscode';
import type { ConfigLoader } from './configLoader';
import type { HostDialogs } from './dialogs';
import { loadHostBundle } from './loadHostBundle';
import type { RegistryBrowser, RegistryPickState } from './registryBrowser';
import type { StoredInputs } from './storedInputs';

export function registerAddFromRegistry(deps: { configLoader: ConfigLoader; inputs: StoredInputs; dialogs: HostDialogs }): {
  disposables: vscode.Disposable[];
  /** The registry pick on screen, for tests. */
  registryPick(): RegistryPickState | undefined;
} {
  let browser: RegistryBrowser | undefined;
  const get = () => (browser ??= new (loadHostBundle().RegistryBrowser)(deps));
  return {
    disposables: [
      vscode.commands.registerCommand('mcpHost.addFromRegistry', () => get().addFromRegistry()),
      vscode.commands.registerCommand('mcpHost.importServers', () => get().importServers()),
    ],
    registryPick: () => browser?.state,
  };
}
