// The session layer (./session, bundled as dist/host.js): what runs only once a server runs or a lazy part is used.
// createHost loads it, once; everything on the activation path is handed this loader and imports only its types.
import type * as Session from './session';

export type SessionLayer = typeof Session;
export type LoadSessionLayer = () => SessionLayer;
