// Resources the user attached to chat ("Attach to Chat"), waiting for the chat participant's next request, which
// takes them all and adds their contents as context.
import { Emitter, type Disposable } from '../../common/events';
import type { ResourceContents } from './resourceContents';
import { resourceKey } from './resourceLocation';

export interface ChatAttachment {
  serverId: string;
  serverName: string;
  /** The resource's URI on its server. */
  uri: string;
  /** What the user saw: the resource's title or name. */
  label: string;
  /** The contents as read when attached. */
  contents: ResourceContents[];
}

export class ChatAttachments implements Disposable {
  private items: ChatAttachment[] = [];
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;

  /** Queues an attachment; attaching the same resource again replaces the earlier contents. */
  add(item: ChatAttachment): void {
    const key = resourceKey(item.serverId, item.uri);
    this.items = [...this.items.filter((i) => resourceKey(i.serverId, i.uri) !== key), item];
    this._onDidChange.fire();
  }

  /** What is queued, without taking it (e.g. to show it). */
  peek(): readonly ChatAttachment[] {
    return this.items;
  }

  /** Takes everything queued: the next request gets it, later ones do not. */
  take(): ChatAttachment[] {
    const taken = this.items;
    if (!taken.length) return [];
    this.items = [];
    this._onDidChange.fire();
    return taken;
  }

  dispose(): void {
    this.items = [];
    this._onDidChange.dispose();
  }
}
