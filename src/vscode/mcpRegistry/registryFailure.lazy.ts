// The ways on from a registry that cannot be used (see core/presentation/registryFailure): its settings, and a log
// of its failures with the technical detail (the error code) that the rows leave out.
import vscode = require('vscode');
import type { RegistryError } from '../../core/features/mcpRegistry/registryClient';
import type { RegistryFailureAction } from '../../core/presentation/registryFailure';

let channel: vscode.LogOutputChannel | undefined;

/** Made at the first failure: a window that never meets one has no such log. */
const log = (): vscode.LogOutputChannel => (channel ??= vscode.window.createOutputChannel('MCP Registry', { log: true }));

/** The failure in words at info; Node's error (its code) at debug. */
export function logRegistryFailure(error: RegistryError): void {
  log().info(error.message);
  if (error.technical) log().debug(`Details: ${error.technical}`);
}

/** Runs a failure row's action other than Retry (which the pick does itself). */
export async function openFailureAction(action: Exclude<RegistryFailureAction, 'retry'>): Promise<void> {
  if (action === 'showLog') return log().show(true);
  await vscode.commands.executeCommand('workbench.action.openSettings', action === 'registrySetting' ? 'mcpHost.registry.url' : 'http.proxy');
}
