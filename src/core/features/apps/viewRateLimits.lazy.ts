// How often a view may ask for things. A view is untrusted HTML: unbounded, it could flood its server with tool calls,
// the user with dialog after dialog, or its server's log with lines. Each kind of request has a token bucket per view:
// a burst, then a steady rate. A request over the rate is refused (a JSON-RPC error the view can read, with when to try
// again) and the server's log says so once per run of refusals, not once per request.

/** A bucket: `burst` requests at once, then `perSecond` on average. */
export interface Rate {
  burst: number;
  perSecond: number;
}

/** Tool calls a view makes through the bridge (each still goes through consent). */
export const VIEW_TOOL_CALL_RATE: Rate = { burst: 10, perSecond: 2 };
/** Questions a view makes the user answer: links to open, messages for the chat, consent to its tool calls. */
export const VIEW_DIALOG_RATE: Rate = { burst: 3, perSecond: 0.2 };
/** Lines a view writes to its server's log. */
export const VIEW_LOG_RATE: Rate = { burst: 50, perSecond: 10 };

/** The JSON-RPC error code of a refused request ("too many requests"); its data says when to try again. */
export const VIEW_RATE_LIMITED_CODE = -32029;

/** The error a view gets for a request over the rate; the bridge sends `code`, `message` and `data` as they are. */
export class ViewRateLimitedError extends Error {
  readonly code = VIEW_RATE_LIMITED_CODE;
  readonly data: { retryAfterMs: number };

  constructor(message: string, retryAfterMs: number) {
    super(message);
    this.name = 'ViewRateLimitedError';
    this.data = { retryAfterMs };
  }
}

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rate: Rate,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = rate.burst;
    this.last = now();
  }

  private refill(): void {
    const now = this.now();
    // A clock that goes back refills nothing (and does not drain the bucket either).
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.rate.burst, this.tokens + (elapsed / 1000) * this.rate.perSecond);
  }

  /** Takes one token: true when the request may go. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next token (0 when one is there). */
  retryAfterMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.rate.perSecond) * 1000);
  }
}

/** "10 at once, then 2 a second" / "3 at once, then one every 5 seconds". */
export function describeRate(rate: Rate, noun: string): string {
  const steady = rate.perSecond >= 1 ? `${rate.perSecond} a second` : `one every ${Math.round(1 / rate.perSecond)} seconds`;
  return `${rate.burst} ${noun} at once, then ${steady}`;
}

/** One kind of request of one view: a bucket, and log lines only where a run of refusals starts and ends. */
export class ViewRateLimit {
  private readonly bucket: TokenBucket;
  private refused = 0;

  constructor(
    readonly rate: Rate,
    /** What is counted, plural ("tool calls"). */
    private readonly noun: string,
    /** Who asks, for the log ('View of "get-time"'). */
    private readonly who: string,
    private readonly log: (line: string) => void,
    now: () => number = Date.now,
  ) {
    this.bucket = new TokenBucket(rate, now);
  }

  /** True when the request may go; otherwise it is counted, and the first of a run is logged. */
  allow(): boolean {
    if (this.bucket.take()) {
      if (this.refused) this.log(`${this.who}: ${this.refused} ${this.noun} refused for going over the rate (${describeRate(this.rate, this.noun)})`);
      this.refused = 0;
      return true;
    }
    if (this.refused++ === 0) this.log(`${this.who} makes too many ${this.noun} (more than ${describeRate(this.rate, this.noun)}): refusing them until it slows down`);
    return false;
  }

  /** Throws the view's error unless the request may go. */
  check(): void {
    if (!this.allow()) {
      const retryAfterMs = this.bucket.retryAfterMs();
      throw new ViewRateLimitedError(`Too many ${this.noun}: a view may make ${describeRate(this.rate, this.noun)}. Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`, retryAfterMs);
    }
  }
}
