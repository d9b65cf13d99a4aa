// The SDK Client, with the log level sent the 2026-07-28 way: that revision deprecates `logging/setLevel` (SEP-2577)
// and carries the level a request wants in its `_meta` (`io.modelcontextprotocol/logLevel`). Once a level is set,
// every request (and notification) of a 2026-07-28 session carries it; 2025 sessions are untouched (the SDK adds no
// envelope to them) and keep `logging/setLevel`.
import { Client, LOG_LEVEL_META_KEY, type LoggingLevel } from '@modelcontextprotocol/client';

export class LevelledClient extends Client {
  /** The level to ask for on each request of a 2026-07-28 session; undefined: none is sent. */
  logLevel: LoggingLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    return envelope && this.logLevel !== undefined ? { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel } : envelope;
  }
}
