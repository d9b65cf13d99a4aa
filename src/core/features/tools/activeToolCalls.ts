// Which tool calls are running right now, and for which chat request: a sampling or elicitation request that a
// server sends while one of its tools runs in chat is shown as part of that chat request. Every call of every surface
// begins here (ToolCaller), so it is also where "a tool was called" is heard (the walkthrough's step).
import { Emitter } from '../../common/events';

export interface ActiveToolCall {
  serverId: string;
  toolName: string;
  /** Plain words for where the call comes from, read after "called from", e.g. `your chat request "summarize the repo"`. */
  origin: string;
}

export class ActiveToolCalls {
  private readonly calls = new Set<ActiveToolCall>();
  private readonly _onDidBegin = new Emitter<ActiveToolCall>();
  /** A call was sent, from any surface. */
  readonly onDidBegin = this._onDidBegin.event;

  /** Marks a call as running until the returned function is called. */
  begin(call: ActiveToolCall): () => void {
    this.calls.add(call);
    this._onDidBegin.fire(call);
    return () => this.calls.delete(call);
  }

  /** The running calls of a server, most recent last. */
  of(serverId: string): ActiveToolCall[] {
    return [...this.calls].filter((c) => c.serverId === serverId);
  }
}
