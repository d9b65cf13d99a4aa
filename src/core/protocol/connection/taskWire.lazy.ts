// Where a session's task requests go on the wire: the 2025-11-25 requests through the SDK, or, on a 2026-07-28 session
// whose server declares the tasks extension, the extension's requests on the host's raw request path. One place that
// owns the raw path's life (the transport it uses, its end with the transport or the session) and takes off the wire
// what the SDK must not see (raw answers, task progress, `notifications/tasks`). It is itself the session's
// TaskRequests: each request goes to the requests of the wire the session negotiated.
import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { ServerLog } from '../../common/log';
import type { TaskRequests } from '../../host/serverSession';
import type { TracingTransport } from './handshake.lazy';
import { LevelledClient } from './levelledClient.lazy';
import { RawRequests } from './rawRequests.lazy';
import { taskRequests, type Send, type SessionTaskRequests } from './taskRequests.lazy';
import { declaresTasksExtension, taskRequestsV2, type TaskRequestsV2 } from './taskRequestsV2.lazy';

export class TaskWire implements TaskRequests {
  readonly raw = new RawRequests();
  /** The 2025-11-25 task requests (their pushed statuses are followed by the client's handler). */
  readonly v1: SessionTaskRequests;
  private v2: { client: Client; requests: TaskRequestsV2 } | undefined;

  constructor(
    private readonly send: Send,
    private readonly lifetime: AbortSignal,
    private readonly client: () => Client | undefined,
    private readonly log: () => ServerLog,
    private readonly serverName: () => string,
  ) {
    this.v1 = taskRequests(send);
    lifetime.addEventListener('abort', () => this.raw.close(this.ended()), { once: true });
  }

  private ended = () => new Error(`The session with "${this.serverName()}" has ended.`);

  /** Takes a message off the wire before the SDK sees it: true when it was ours. */
  readonly consume = (m: JSONRPCMessage): boolean => {
    if ('method' in m && m.method === 'notifications/progress') this.raw.progressed((m.params as { progressToken?: unknown } | undefined)?.progressToken);
    return this.raw.take(m) || this.v1.progressReceived(m) || !!this.v2?.requests.notificationReceived(m);
  };

  /** The transport of a connection attempt: raw requests go out on it and end when it closes. */
  wire(transport: TracingTransport): TracingTransport {
    this.raw.attach((m) => transport.send(m));
    transport.whenClosed = () => this.raw.close(this.ended());
    return transport;
  }

  /** The session's task requests, for the wire it negotiated. */
  get requests(): TaskRequests {
    const client = this.client();
    if (!(client instanceof LevelledClient) || client.getProtocolEra() !== 'modern' || !declaresTasksExtension(client.getServerCapabilities())) return this.v1;
    if (this.v2?.client !== client) {
      const deps = { send: this.send, raw: this.raw, client: () => client, log: this.log(), lifetime: this.lifetime, onProgress: this.v1.onProgress };
      this.v2 = { client, requests: taskRequestsV2(deps) };
    }
    return this.v2.requests;
  }

  get anyCall(): boolean {
    return !!this.requests.anyCall;
  }

  readonly onStatus: NonNullable<TaskRequests['onStatus']> = (listener) => this.requests.onStatus!(listener);
  readonly onProgress: NonNullable<TaskRequests['onProgress']> = (listener) => this.v1.onProgress!(listener);
  readonly callTool: TaskRequests['callTool'] = (...args) => this.requests.callTool(...args);
  readonly get: TaskRequests['get'] = (...args) => this.requests.get(...args);
  readonly result: TaskRequests['result'] = (...args) => this.requests.result(...args);
  readonly cancel: TaskRequests['cancel'] = (...args) => this.requests.cancel(...args);
  readonly list: TaskRequests['list'] = (...args) => this.requests.list(...args);
}
