// Sampling on VS Code: the editor's language models, the host's dialogs, and a visible notice when a server's request
// cannot be served (the server alone would hide it). Built when the first session asks for its capabilities.
import vscode = require('vscode');
import { plainText } from '../../core/presentation/serverText';
import type { InteractionQueue } from '../../core/host/interactionQueue';
import { describeServerContext } from '../../core/features/sampling/serverContext';
import type { ActiveToolCalls } from '../../core/features/tools/activeToolCalls';
import type { ClientFeature } from '../../core/host/clientFeature';
import { SamplingFeature } from '../../core/features/sampling/samplingFeature.lazy';
import { LanguageModels } from '../chat/languageModels.lazy';
import type { PermissionStore } from '../../core/host/permissionStore';
import type { ServerInfo } from '../../core/host/serverInfo';
import type { HostDialogs } from '../dialogs/dialogRouter';
import type { ServerOutputChannels } from '../servers/serverLogs';
import { readSamplingSettings } from '../../core/features/sampling/samplingSettings';
import { cachedSection } from '../cachedSection';
import { offInFile, switchedOff } from '../../core/features/tools/toolSwitches';

export interface SamplingWiring {
  dialogs: HostDialogs;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  queue: InteractionQueue;
  logs: ServerOutputChannels;
  servers: () => ServerInfo[];
}

const JUSTIFICATION = 'An MCP server asked for a completion, and you allowed it.';

export function createSamplingFeature(w: SamplingWiring): ClientFeature {
  // Each server's, read at its start from levels read once for all servers (and again when a setting changes).
  const section = cachedSection('mcpHost.sampling');
  return new SamplingFeature({
    settings: (definition) => readSamplingSettings(section, definition),
    models: new LanguageModels(JUSTIFICATION),
    dialogs: w.dialogs,
    permissions: w.permissions,
    activeToolCalls: w.activeToolCalls,
    queue: w.queue,
    describeContext: (serverId, scope) => describeServerContext(w.servers(), serverId, scope),
    toolSwitchedOff: (definition, tool) => {
      const server = w.servers().find((s) => s.id === definition.id);
      return server ? switchedOff(server, tool) !== undefined : offInFile(definition.raw, tool);
    },
    notifyUser: (message, serverId) => {
      void vscode.window.showWarningMessage(plainText(message), 'Show Output', 'Sampling Settings').then((action) => {
        if (action === 'Show Output') w.logs.show(serverId);
        if (action === 'Sampling Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'mcpHost.sampling');
      });
    },
  });
}
