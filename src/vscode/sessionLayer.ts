// The lazy layers, loaded by createHost when first needed; everything on the activation path is handed their loaders
// and imports only their types. The launch layer (./session/launchLayer, dist/launch.js): a server's launch plan and
// its process. The session layer (./session, dist/host.js): what runs only once a server runs or a lazy part is used.
import type * as Launch from './launchBundle.lazy';
import type * as Session from './hostBundle.lazy';

export type LaunchLayer = typeof Launch;
export type SessionLayer = typeof Session;
export type LoadSessionLayer = () => SessionLayer;
