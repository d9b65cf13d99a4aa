// When a crashed server comes back: exponential backoff, and a limit after which it stays down until the user acts.

export interface RestartPolicyOptions {
  /** Crashes allowed inside `windowMs` before giving up. */
  maxCrashes: number;
  windowMs: number;
  /** First delay; doubles with each crash in the window, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRestartPolicy: RestartPolicyOptions = {
  maxCrashes: 5,
  windowMs: 3 * 60_000,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
};

export type RestartDecision = { restart: true; delayMs: number; crashCount: number } | { restart: false; crashCount: number };

export class RestartPolicy {
  private crashTimes: number[] = [];

  constructor(
    private readonly options: RestartPolicyOptions = defaultRestartPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash and says whether (and when) to restart. */
  onCrash(): RestartDecision {
    const t = this.now();
    this.crashTimes = this.crashTimes.filter((c) => t - c < this.options.windowMs);
    this.crashTimes.push(t);
    const crashCount = this.crashTimes.length;
    if (crashCount >= this.options.maxCrashes) return { restart: false, crashCount };
    const delayMs = Math.min(this.options.baseDelayMs * 2 ** (crashCount - 1), this.options.maxDelayMs);
    return { restart: true, delayMs, crashCount };
  }

  get crashCount(): number {
    const t = this.now();
    // Read for every ServerInfo: counted without building a list.
    let count = 0;
    for (const c of this.crashTimes) if (t - c < this.options.windowMs) count++;
    return count;
  }

  /** A deliberate start by the user forgives earlier crashes. */
  reset(): void {
    this.crashTimes = [];
  }
}
