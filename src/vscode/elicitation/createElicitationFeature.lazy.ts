// Elicitation on VS Code: forms as a native multi-step quick input, URLs opened only after a confirmation; settings
// read like sampling's (a workspace can only tighten them). Built when the first session asks for its capabilities.
import { NUMERIC_SETTINGS } from '../../core/config/numericSettings';
import type { InteractionQueue } from '../../core/host/interactionQueue';
import type { ActiveToolCalls } from '../../core/features/tools/activeToolCalls';
import type { ClientFeature } from '../../core/host/clientFeature';
import { ElicitationFeature } from '../../core/features/elicitation/elicitationFeature.lazy';
import { QuickInputElicitationUi } from './quickInputElicitationUi.lazy';
import type { PermissionStore } from '../../core/host/permissionStore';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { disabledFor, tightestNumber } from '../../core/config/tightenedSettings';
import { cachedSection } from '../cachedSection';

export interface ElicitationWiring {
  dialogs: HostDialogs;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  queue: InteractionQueue;
}

export function createElicitationFeature(w: ElicitationWiring): ClientFeature {
  // Read at each server's start from levels read once for all servers (and again when a setting changes).
  const settings = cachedSection('mcpHost.elicitation');
  return new ElicitationFeature({
    enabled: (definition) => !disabledFor(settings, definition),
    rateLimitPerMinute: () => tightestNumber(settings, 'rateLimit', NUMERIC_SETTINGS.elicitationRateLimit),
    ui: new QuickInputElicitationUi(w.dialogs),
    permissions: w.permissions,
    activeToolCalls: w.activeToolCalls,
    queue: w.queue,
  });
}
