// The boundary between the activation bundle and the protocol layer (see ./protocol): the one place that loads it.
// Unbundled (tests, the headless client) this is a plain require of ./protocol; esbuild turns it into a require of
// dist/host.js, so the SDK, zod and the JSON Schema validator load with the first server, not on activation.
import { onListenerError, reportListenerError } from './host/events';
import type * as Protocol from './protocol';

let loaded: typeof Protocol | undefined;

export function loadProtocol(): typeof Protocol {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load is the point
    loaded = require('./protocol') as typeof Protocol;
    // Bundled, the protocol layer has its own copy of the event plumbing: its failing listeners go where ours do.
    if (loaded.onListenerError !== onListenerError) loaded.onListenerError(reportListenerError);
  }
  return loaded;
}
