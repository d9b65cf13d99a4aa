// Asks, through the dialog layer, whether to run a workspace server: shows exactly what would run.
import * as path from 'path';
import type { TrustPrompt } from '../core/host/ports';
import type { HostDialogs } from './dialogs';

/** What a definition runs, as written (variables unresolved, so no secret is ever shown). */
export function describeDefinitionForTrust(raw: Parameters<TrustPrompt['askTrust']>[0]['raw']): string {
  if (raw.type === 'stdio') {
    const lines = [`Command: ${[raw.command, ...raw.args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(' ')}`];
    if (raw.cwd) lines.push(`Working directory: ${raw.cwd}`);
    const envNames = Object.keys(raw.env);
    if (envNames.length) lines.push(`Environment: ${envNames.join(', ')}`);
    if (raw.envFile) lines.push(`Environment file: ${raw.envFile}`);
    return lines.join('\n');
  }
  const lines = [`URL: ${raw.url} (${raw.type === 'sse' ? 'SSE' : 'Streamable HTTP'})`];
  const headers = Object.keys(raw.headers);
  if (headers.length) lines.push(`Headers: ${headers.join(', ')}`);
  return lines.join('\n');
}

export function trustPromptFrom(dialogs: HostDialogs): TrustPrompt {
  return {
    askTrust: ({ name, scope, raw }) =>
      dialogs.confirmTrust({
        serverName: name,
        source: scope.kind === 'workspace' ? `${scope.label}${path.sep}.vscode${path.sep}mcp.json` : scope.configPath,
        detail: describeDefinitionForTrust(raw),
      }),
  };
}
