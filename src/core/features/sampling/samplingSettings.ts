// Sampling settings, per server, read by the rule of ../../config/tightenedSettings: a workspace can add servers to
// the disabled list, lower a limit or narrow the context, but not pin models or lift limits.
import { NUMERIC_SETTINGS } from '../../config/numericSettings';
import { disabledFor, tightestNumber, userValue, type SettingsSection } from '../../config/tightenedSettings';
import type { ServerDefinition } from '../../config/serverDefinition';

export type ContextScope = 'none' | 'thisServer' | 'allServers';

export interface SamplingSettings {
  /** Off: the capability is not declared to this server. */
  enabled: boolean;
  /** Requests per minute this server may make. */
  rateLimitPerMinute: number;
  /** Requests asking for more tokens are refused. */
  maxTokens: number;
  /** Models this server may use, in order of preference (ids or families); empty: any. */
  pinnedModels: string[];
  /** The widest `includeContext` the user allows. */
  allowedContext: ContextScope;
  /** Requests may offer the model tools (`tools`/`toolChoice`): declared as `sampling.tools` only then. */
  allowTools: boolean;
  /** The user checks each answer before the server gets it (a second question per request). Off: answers go back. */
  reviewAnswers?: boolean;
}

const CONTEXT_SCOPES: ContextScope[] = ['none', 'thisServer', 'allServers'];

function tightestContext(c: SettingsSection): ContextScope {
  const { user, workspace } = userValue<ContextScope>(c, 'allowedContext');
  const ranks = [user, ...workspace].map((v) => CONTEXT_SCOPES.indexOf(v)).filter((r) => r >= 0);
  return CONTEXT_SCOPES[ranks.length ? Math.min(...ranks) : 0];
}

/** `c` is the `mcpHost.sampling` section. */
export function readSamplingSettings(c: SettingsSection, definition: ServerDefinition): SamplingSettings {
  // Pins only from the user: a workspace pinning a server to a model would choose where your prompts go.
  const models = userValue<unknown>(c, 'models').user;
  const pinned = typeof models === 'object' && models !== null ? (models as Record<string, unknown>)[definition.name] : undefined;
  return {
    enabled: !disabledFor(c, definition),
    rateLimitPerMinute: tightestNumber(c, 'rateLimit', NUMERIC_SETTINGS.samplingRateLimit),
    maxTokens: tightestNumber(c, 'maxTokens', NUMERIC_SETTINGS.samplingMaxTokens),
    pinnedModels: Array.isArray(pinned) ? pinned.filter((p): p is string => typeof p === 'string') : typeof pinned === 'string' ? [pinned] : [],
    allowedContext: tightestContext(c),
    // A workspace can turn it off, never on.
    allowTools: Object.values(userValue<unknown>(c, 'allowTools')).flat().every((v) => v !== false),
    // More checking is never a risk: a workspace can turn it on too.
    reviewAnswers: Object.values(userValue<unknown>(c, 'reviewAnswers')).flat().some((v) => v === true),
  };
}
