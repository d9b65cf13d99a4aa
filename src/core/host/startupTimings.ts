// When activation began and ended, and when every configured server first ran: the figures a user waits for.
import type { ServerRegistry } from './serverRegistry';

export interface StartupTimings {
  /** ms since epoch when activate() was entered. */
  activateStartedAt: number;
  /** How long activate() itself took, in ms. */
  activateMs?: number;
  /** ms since epoch when all configured servers were first running at once (undefined until then). */
  allRunningAt?: number;
}

export function recordStartupTimings(
  registry: ServerRegistry,
  activateStartedAt: number,
): { timings: StartupTimings; activated(): void; dispose(): void } {
  const timings: StartupTimings = { activateStartedAt };
  const sub = registry.onDidChangeServers(() => {
    const servers = registry.servers();
    if (servers.length && servers.every((s) => s.state.kind === 'running')) {
      timings.allRunningAt = Date.now();
      sub.dispose();
    }
  });
  return { timings, activated: () => (timings.activateMs = Date.now() - activateStartedAt), dispose: () => sub.dispose() };
}
