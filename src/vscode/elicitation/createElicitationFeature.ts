// Elicitation on VS Code: forms as a native multi-step quick input, URLs opened only after a confirmation; settings
// read like sampling's (a workspace can only tighten them).
import { NUMERIC_SETTINGS } from '../../core/config/numericSettings';
import type { InteractionQueue } from '../../core/host/interactionQueue';
import type { ActiveToolCalls } from '../../core/features/tools/activeToolCalls';
import { lazyClientFeature, type ClientFeature } from '../../core/host/clientFeature';
import type { PermissionStore } from '../../core/host/permissionStore';
import type { HostDialogs } from '../dialogs/dialogRouter';
import { disabledFor, tightestNumber } from '../../core/config/tightenedSettings';
import type { LoadSessionLayer } from '../sessionLayer';
import { cachedSection } from '../cachedSection';

export interface ElicitationWiring {
  dialogs: HostDialogs;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  queue: InteractionQueue;
  session: LoadSessionLayer;
}

export function createElicitationFeature(w: ElicitationWiring): ClientFeature {
  // Read at each server's start from levels read once for all servers (and again when a setting changes).
  const settings = cachedSection('mcpHost.elicitation');
  return lazyClientFeature(() => new (w.session().ElicitationFeature)({
    enabled: (definition) => !disabledFor(settings, definition),
    rateLimitPerMinute: () => tightestNumber(settings, 'rateLimit', NUMERIC_SETTINGS.elicitationRateLimit),
    ui: new (w.session().QuickInputElicitationUi)(w.dialogs),
    permissions: w.permissions,
    activeToolCalls: w.activeToolCalls,
    queue: w.queue,
  }));
}
