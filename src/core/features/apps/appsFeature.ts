// Declares MCP Apps to servers, so they attach views to their tools. Only hosts that can show views add this feature
// (the VS Code host does; the headless command-line client does not), so a server never sends views nobody renders.
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../../host/clientFeature';
import { APP_HTML_MIME_TYPE, APPS_EXTENSION_ID } from './appMeta';

export function createAppsFeature(): ClientFeature {
  return {
    capabilities: (): ClientCapabilities => ({ extensions: { [APPS_EXTENSION_ID]: { mimeTypes: [APP_HTML_MIME_TYPE] } } }),
    install: () => undefined,
  };
}
