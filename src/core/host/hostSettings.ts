// The host's settings as the server manager reads them (at each use: a changed setting applies from the next start).
export interface HostSettings {
  autoStart: boolean;
  /** User/machine-level: run workspace servers without asking (dev containers, CI). Never set by a workspace. */
  trustAllServers: boolean;
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
  /** A session idle this long is pinged; 0 or absent: never. */
  pingIntervalMs?: number;
  /** How long a ping may go unanswered before the server is put in error (and restarted by the policy). */
  pingTimeoutMs?: number;
  /** When servers without their own `startup` start (absent: eager, as on the command line); `startEagerly`: names that start eagerly. */
  startup?: 'eager' | 'onDemand';
  startEagerly?: readonly string[];
  /** An on-demand server unused this long goes dormant again; 0 or absent: never. */
  idleStopMs?: number;
}
