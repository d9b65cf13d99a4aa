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

/**
 * The rows, the failure first (choosing it tries again). `message` is the RegistryError's, already in words;
 * `reason`, when the registry was not reached, is why ("its address could not be found (no network connection, …)").
 * A row shows one line of each of its label and detail, cut where the pick ends: the failure is said in two short
 * lines (what happened and why; what may be wrong), and the pick's title names the registry's address.
 */
export function registryFailureRows(message: string, unreachable: boolean, reason?: string): RegistryFailureRow[] {
  const aside = reason?.indexOf(' (') ?? -1;
  const failure: RegistryFailureRow =
    unreachable && reason
      ? {
          label: `$(error) Cannot reach the registry: ${labelText(truncate(aside > 0 ? reason.slice(0, aside) : reason, 60))}`,
          detail:
            aside > 0 && reason.endsWith(')')
              ? `${labelText(truncate(reason.charAt(aside + 2).toUpperCase() + reason.slice(aside + 3, -1), 70))}? See below.`
              : 'Check your network connection and proxy, or the registry address below.',
          action: 'retry',
        }
      : {
          label: `$(error) ${unreachable ? 'Cannot reach the MCP registry' : 'The MCP registry did not answer as expected'}`,
          detail: labelText(truncate(`${message}${unreachable ? ' Check your network connection and proxy, or the registry address in the settings.' : ''}`, 400)),
          action: 'retry',
        };
  return [
    failure,
    { label: '$(refresh) Retry', description: 'search the registry again', action: 'retry' },
    { label: '$(settings-gear) Open Settings: Registry Address', description: 'mcpHost.registry.url', action: 'registrySetting' },
    { label: '$(settings-gear) Open Settings: Proxy', description: 'http.proxy', action: 'proxySetting' },
    { label: '$(output) Show Log', description: 'what went wrong, in detail', action: 'showLog' },
  ];
}
