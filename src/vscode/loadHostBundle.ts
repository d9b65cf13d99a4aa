// The VS Code layer's side of the lazy boundary (see ./hostBundle and ../core/loadProtocol): bundled, both loaders
// require the same dist/host.js.
import { loadProtocol } from '../core/loadProtocol';
import type * as HostBundle from './hostBundle';

let loaded: typeof HostBundle | undefined;

export function loadHostBundle(): typeof HostBundle {
  if (!loaded) {
    // The protocol layer's loader first: it connects what the host bundle shares with this one (listener errors).
    loadProtocol();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load is the point
    loaded = require('./hostBundle') as typeof HostBundle;
  }
  return loaded;
}
