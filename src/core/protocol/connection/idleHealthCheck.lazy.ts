// The idle health check of a session: it watches the traffic, and a session with none for the ping interval is asked
// `ping` (2026-07-28 has no ping: `server/discover`, which every server must answer, stands in). No answer within the
// ping timeout: the server is taken for dead and `onUnresponsive` ends the session as a crash would (the restart policy
// takes over). A request of ours still running is not idleness: its own timeout watches it.
import { SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import type { ServerLog } from '../../common/log';
import type { TrafficObserver } from './handshake.lazy';
import { isErrorResponse, isRequest, isResultResponse } from './messageKinds.lazy';

export interface IdleHealthCheckOptions {
  /** 0: never checked. */
  intervalMs: number;
  timeoutMs: number;
  /** The session's client while it is open. */
  client(): Client | undefined;
  log: ServerLog;
  signal: AbortSignal;
  onUnresponsive(message: string): void;
}

export class IdleHealthCheck implements TrafficObserver {
  /** When the session last sent or received anything, and our requests still unanswered. */
  private lastTraffic = Date.now();
  private readonly unanswered = new Set<string | number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: IdleHealthCheckOptions) {}

  sent: TrafficObserver['sent'] = (m) => {
    this.lastTraffic = Date.now();
    if (isRequest(m)) this.unanswered.add(m.id);
    // A request we cancelled (or that timed out) may never be answered.
    else if ('method' in m && m.method === 'notifications/cancelled') this.unanswered.delete((m.params as { requestId?: string | number } | undefined)?.requestId ?? '');
  };

  received: TrafficObserver['received'] = (m) => {
    this.lastTraffic = Date.now();
    if (isResultResponse(m) || isErrorResponse(m)) this.unanswered.delete(m.id as string | number);
  };

  /** Checks after `delayMs` (at once after the start: 0), then after each idle interval. */
  schedule(delayMs: number): void {
    if (!this.options.intervalMs || this.stopped) return;
    this.timer = setTimeout(() => void this.check(), Math.max(10, delayMs));
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async check(): Promise<void> {
    this.timer = undefined;
    const { intervalMs: interval, timeoutMs: timeout } = this.options;
    const client = this.options.client();
    if (!client || this.stopped) return;
    const idle = Date.now() - this.lastTraffic;
    if (idle < interval || this.unanswered.size) {
      this.schedule(this.unanswered.size ? interval : interval - idle);
      return;
    }
    const options = { timeout, signal: this.options.signal };
    try {
      if (client.getProtocolEra() === 'modern') await client.discover(options);
      else await client.ping(options);
    } catch (e) {
      if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout && !this.stopped && this.options.client()) {
        this.options.onUnresponsive(`The server did not answer ping within ${Math.round(timeout / 100) / 10} s`);
        return;
      }
      // Any answer, an error included, shows the server alive; a closed session is reported by its transport.
      this.options.log.debug(`Health check: ${(e as Error).message}`);
    }
    this.schedule(interval);
  }
}
