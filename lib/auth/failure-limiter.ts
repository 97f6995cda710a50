/**
 * Counts failures per key in a sliding window (in memory, per server
 * process): after `limit` failures within `windowMs`, `limited(key)` is
 * true until the oldest of them leaves the window. Used for wrong bearer
 * tokens and wrong passwords.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again; 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit] + this.windowMs - this.now()) / 1000));
  }

  /** Records one failure; answers true when this one reaches the limit (log it once, then). */
  fail(key: string): boolean {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.forgetOldest();
    return recent.length === this.limit;
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((time) => time > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Bounded memory under a flood of distinct keys. */
  private forgetOldest(): void {
    const first = this.failures.keys().next();
    if (!first.done) this.failures.delete(first.value);
  }
}
