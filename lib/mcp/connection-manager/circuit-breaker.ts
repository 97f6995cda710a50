/** When a tool's breaker opens and closes again. */
export interface CircuitBreakerOptions {
  /** Failures in a row that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets one trial call through (half-open). */
  cooldownMs: number;
  /** Trial calls in a row that must succeed, one at a time, to close it again. */
  successThreshold: number;
}

export const defaultCircuitBreaker: CircuitBreakerOptions = { failureThreshold: 5, cooldownMs: 30_000, successThreshold: 2 };

export type CircuitState = "closed" | "open" | "half-open";

/** A call let through: an ordinary one, or the one trial call a half-open circuit allows at a time. */
export type Admission = { ok: true; trial: boolean } | { ok: false; state: "open" | "half-open"; retryInMs: number };

/**
 * One tool's circuit breaker, a pure state machine on an injected clock:
 * - closed: every call goes through; `failureThreshold` failures in a row open it;
 * - open: every call is refused until `cooldownMs` have passed since it opened;
 * - half-open: one trial call at a time goes through (the others are
 *   refused); a failed trial opens it again for a new cool-down, and
 *   `successThreshold` successful trials in a row close it.
 *
 * The caller reports how each admitted call ended: `success`, `failure`, or
 * `abandon` (cancelled: it says nothing about the tool).
 *
 * @example
 * const admission = breaker.admit();
 * if (!admission.ok) return failFast(admission.retryInMs);
 * const outcome = await call();
 * outcome.isError ? breaker.failure(admission) : breaker.success(admission);
 */
export class CircuitBreaker {
  #state: CircuitState = "closed";
  #failures = 0;
  #successes = 0;
  #openedAt = 0;
  #trialRunning = false;

  constructor(
    readonly options: CircuitBreakerOptions,
    private readonly now: () => number,
  ) {}

  /** The state as of now: an open circuit whose cool-down is over reads as half-open. */
  get state(): CircuitState {
    if (this.#state === "open" && this.now() - this.#openedAt >= this.options.cooldownMs) return "half-open";
    return this.#state;
  }

  admit(): Admission {
    if (this.#state === "open") {
      const waited = this.now() - this.#openedAt;
      if (waited < this.options.cooldownMs) return { ok: false, state: "open", retryInMs: this.options.cooldownMs - waited };
      this.#state = "half-open";
      this.#successes = 0;
    }
    if (this.#state === "half-open") {
      if (this.#trialRunning) return { ok: false, state: "half-open", retryInMs: 0 };
      this.#trialRunning = true;
      return { ok: true, trial: true };
    }
    return { ok: true, trial: false };
  }

  success(admission: Admission): void {
    if (!this.#counts(admission)) return;
    if (this.#state === "closed") {
      this.#failures = 0;
      return;
    }
    this.#trialRunning = false;
    this.#successes += 1;
    if (this.#successes >= this.options.successThreshold) this.#close();
  }

  failure(admission: Admission): void {
    if (!this.#counts(admission)) return;
    if (this.#state === "closed") {
      this.#failures += 1;
      if (this.#failures >= this.options.failureThreshold) this.#open();
      return;
    }
    this.#open();
  }

  /** An admitted call that ended without a verdict on the tool (the run was cancelled). */
  abandon(admission: Admission): void {
    if (admission.ok && admission.trial && this.#state === "half-open") this.#trialRunning = false;
  }

  /** Only results of calls admitted in the current phase count: a slow call from before the circuit opened says nothing about the trial. */
  #counts(admission: Admission): boolean {
    if (!admission.ok) return false;
    return admission.trial ? this.#state === "half-open" : this.#state === "closed";
  }

  #open(): void {
    this.#state = "open";
    this.#openedAt = this.now();
    this.#failures = 0;
    this.#successes = 0;
    this.#trialRunning = false;
  }

  #close(): void {
    this.#state = "closed";
    this.#failures = 0;
    this.#successes = 0;
    this.#trialRunning = false;
  }
}
