// The log port: one log per server, which the VS Code layer backs with a LogOutputChannel and the CLI with stderr.
import type { Disposable, Event } from './events';

export type LogLevelName = 'trace' | 'debug' | 'info' | 'warning' | 'error' | 'off';

/** One server's log. VS Code's LogOutputChannel fits this shape. */
export interface ServerLog {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The level the user chose for this log: drives `logging/setLevel` and whether traffic is traced. */
  readonly logLevel: LogLevelName;
  readonly onDidChangeLogLevel: Event<LogLevelName>;
}

export interface ServerLogFactory {
  /** Called once per configured server (by id); the same log survives restarts. */
  create(serverId: string, serverName: string): ServerLog & Disposable;
}
