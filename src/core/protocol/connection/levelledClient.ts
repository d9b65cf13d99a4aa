// The SDK Client, with the log level sent the 2026-07-28 way: that revision deprecates `logging/setLevel` (SEP-2577)
// and carries the level a request wants in its `_meta` (`io.modelcontextprotocol/logLevel`). Once a level is set,
// every request (and notification) of a 2026-07-28 session carries it; 2025 sessions are untouched (the SDK adds no
// envelope to them) and keep `logging/setLevel`.
// The capabilities in that envelope leave out the 2025-11-25 `tasks` capability (requests the server sends as tasks,
// serverTaskRequests.ts): declared in `initialize` to a 2025 server, it means nothing on the 2026-07-28 wire.
import { Client, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/client';

export class LevelledClient extends Client {
  /** The level to ask for on each request of a 2026-07-28 session; undefined: none is sent. */
  logLevel: LoggingLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    let envelope = super._outboundMetaEnvelope();
    const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
    if (envelope && capabilities && typeof capabilities === 'object' && 'tasks' in capabilities) {
      const modern = { ...(capabilities as Record<string, unknown>) };
      delete modern.tasks;
      envelope = { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: modern };
    }
    return envelope && this.logLevel !== undefined ? { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel } : envelope;
  }
}
