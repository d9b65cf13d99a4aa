// What the registry pick shows when the registry cannot be used: one row that says what happened in words (never a
// bare error code, never cut), and the ways on: try again, the settings that decide where it goes (the registry's
// address, the proxy), and the log with the details. Pure, so the words are unit-tested.
import { labelText, truncate } from './serverText';

export type RegistryFailureAction = 'retry' | 'registrySetting' | 'proxySetting' | 'showLog';

export interface RegistryFailureRow {
  label: string;
  description?: string;
  detail?: string;
  action: RegistryFailureAction;
}

/** The rows, the failure first (choosing it tries again). `message` is the RegistryError's, already in words. */
export function registryFailureRows(message: string, unreachable: boolean): RegistryFailureRow[] {
  const what = unreachable ? 'Cannot reach the MCP registry' : 'The MCP registry did not answer as expected';
  const hint = unreachable ? ' Check your network connection and proxy, or the registry address in the settings.' : '';
  return [
    { label: `$(error) ${what}`, detail: labelText(truncate(`${message}${hint}`, 400)), action: 'retry' },
    { label: '$(refresh) Retry', description: 'search the registry again', action: 'retry' },
    { label: '$(settings-gear) Open Settings: Registry Address', description: 'mcpHost.registry.url', action: 'registrySetting' },
    { label: '$(settings-gear) Open Settings: Proxy', description: 'http.proxy', action: 'proxySetting' },
    { label: '$(output) Show Log', description: 'what went wrong, in detail', action: 'showLog' },
  ];
}
