// A sliding one-minute window per key: a server that floods sampling or elicitation requests gets errors, not a pile
// of dialogs.
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one slot for `key` if fewer than `limit` were taken in the window; otherwise says when one frees up. */
  tryAcquire(key: string, limit: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= limit) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterMs: this.windowMs - (now - recent[0]) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { ok: true };
  }
}

/** The JSON-RPC error code a rate-limited request gets (the implementation-defined server error range). */
export const RATE_LIMITED = -32000;
