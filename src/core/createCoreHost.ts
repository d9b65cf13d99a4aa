// The core host every front end builds (the extension, the `mcp-host` CLI, the conformance client): the server manager with
// its permission and trust stores, the queue that shows one question at a time, and the tool calls in flight. Front
// ends differ only in their ports: where logs go, how questions are asked, where decisions persist, which client
// features they answer, and how the protocol layer is reached (bundled apart in the extension, imported by the CLI).
import { ActiveToolCalls } from './features/tools/activeToolCalls';
import type { ClientFeature } from './host/clientFeature';
import { FirstStartMarks } from './host/firstStartMarks';
import { InteractionQueue } from './host/interactionQueue';
import { PermissionStore } from './host/permissionStore';
import type { KeyValueStore } from './host/hostPorts';
import { rootsFromFolders, type FolderLike } from './host/roots';
import { ServerManager, type ServerManagerDeps } from './host/serverManager';
import { TrustStore } from './host/trustStore';
import type { ServerInfo } from './host/serverInfo';

/** What the client features are built with: the host's shared parts. */
export interface CoreParts {
  permissions: PermissionStore;
  trustStore: TrustStore;
  /** Every question to the user (trust, inputs, sampling, elicitation) is shown one at a time. */
  interactions: InteractionQueue;
  /** Tool calls running in chat: sampling and elicitation questions name the chat they serve. */
  activeToolCalls: ActiveToolCalls;
  servers(): ServerInfo[];
}

export interface CoreHostPorts extends Omit<ServerManagerDeps, 'trustStore' | 'interactions' | 'features' | 'firstStarts'> {
  /** Where permissions and trust decisions persist: the user's (global) and this workspace's. */
  stores: { global: KeyValueStore; workspace: KeyValueStore };
  /** Where the first-start marks live (default: the global store); VS Code's profiles share theirs (sharedMarksFile). */
  marksStore?: KeyValueStore;
  /** The client features every session gets beyond roots (sampling, elicitation, subscriptions, …). */
  features?(parts: CoreParts): readonly ClientFeature[];
}

export interface CoreHost extends CoreParts {
  manager: ServerManager;
  /** The user's entries written by Import or Install for User, marked to ask the trust question at their first start. */
  firstStarts: FirstStartMarks;
  /** The folders whose roots servers see (`file:` URIs of their paths; virtual folders give none). */
  setFolders(folders: readonly FolderLike[]): void;
}

export function createCoreHost(ports: CoreHostPorts): CoreHost {
  const { stores, features, marksStore, ...deps } = ports;
  const permissions = new PermissionStore(stores);
  const trustStore = new TrustStore(permissions);
  const interactions = new InteractionQueue();
  const activeToolCalls = new ActiveToolCalls();
  const servers = (): ServerInfo[] => manager.servers();
  const parts: CoreParts = { permissions, trustStore, interactions, activeToolCalls, servers };
  const firstStarts = new FirstStartMarks(marksStore ?? stores.global);
  // A server running a call of the window's does not go dormant; nor one holding what the front end says (deps.isBusy).
  const isBusy = (id: string) => activeToolCalls.of(id).length > 0 || !!deps.isBusy?.(id);
  const manager: ServerManager = new ServerManager({ ...deps, isBusy, trustStore, interactions, firstStarts, features: features?.(parts) ?? [] });
  return { ...parts, manager, firstStarts, setFolders: (folders) => manager.setRoots(rootsFromFolders(folders)) };
}
