// How a session reaches its server: one launcher per transport (a child process, or a remote URL) behind one small
// interface. The connection runs the handshake over whatever transport the launcher opens, and leaves the process
// (or the remote session) to the launcher when it stops.
import type { Transport } from '@modelcontextprotocol/client';
export type { ConnectionOptions } from '../../host/connectionPort';


/** Runs the handshake over a transport; `onStarted` is called once the transport is up (a process spawned). */
export type Handshake = (transport: Transport, onStarted?: () => void) => Promise<void>;

export interface Launcher {
  /**
   * Opens a transport and runs the handshake over it. A remote launcher may open another and run it again (legacy SSE
   * fallback, after a browser sign-in). Rejects with the first failure that no further attempt can fix.
   */
  connect(handshake: Handshake, signal: AbortSignal): Promise<void>;
  /** Ends what the launcher started, after (and while) `closeTransport` closes the session: the process tree goes too. */
  stop(closeTransport: () => Promise<void>): Promise<void>;
  /** The spawned process while it runs (stdio). */
  readonly pid: number | undefined;
  /** The process this launcher spawned, kept after it ended (diagnostics and tests). */
  readonly spawnedPid: number | undefined;
  /** The last lines the server wrote to stderr: they often say why it failed. */
  readonly recentOutput: readonly string[];
  /** What an unexpected end of the transport means, in words. */
  readonly exitMessage: string;
  /** Values to mask in the session's log (tokens of a sign-in). */
  secrets(): readonly string[];
}
