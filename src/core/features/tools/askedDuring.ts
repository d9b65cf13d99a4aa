// The sentence a server's question (sampling, elicitation) carries when it comes while one of its tools runs: which
// call, started where. Pure: the feature bundles that ask share it without the running calls' state.
import type { ActiveToolCall } from './activeToolCalls';

export const askedDuring = (call: Pick<ActiveToolCall, 'toolName' | 'origin'>): string => `It asks this while its tool "${call.toolName}" runs, called from ${call.origin}.`;
