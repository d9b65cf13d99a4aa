// Asks, through the dialog layer, whether to run a workspace server: shows exactly what would run.
import * as path from 'path';
import { describeDefinition } from '../core/config/describeDefinition';
import type { TrustPrompt } from '../core/host/ports';
import type { HostDialogs } from './dialogs';

export function trustPromptFrom(dialogs: HostDialogs): TrustPrompt {
  return {
    askTrust: ({ name, scope, raw }, facts) =>
      dialogs.confirmTrust({
        serverName: name,
        source: scope.kind === 'workspace' ? `${scope.label}${path.sep}.vscode${path.sep}mcp.json` : scope.configPath,
        detail: describeDefinition(raw, facts),
      }),
  };
}
