import { describe, expect, it } from "vitest";
import { CircuitBreaker, defaultCircuitBreaker } from "./circuit-breaker";

function fakeClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Admits a call and reports it as `result`; returns whether it was let through. */
function call(breaker: CircuitBreaker, result: "success" | "failure"): boolean {
  const admission = breaker.admit();
  if (!admission.ok) return false;
  breaker[result](admission);
  return true;
}

describe("CircuitBreaker (5 failures, 30 s cool-down, 2 successes)", () => {
  it("opens after 5 failures in a row, not before; a success in between resets the count", () => {
    const clock = fakeClock();
    const breaker = new CircuitBreaker(defaultCircuitBreaker, clock.now);
    for (let index = 0; index < 4; index++) call(breaker, "failure");
    call(breaker, "success");
    for (let index = 0; index < 4; index++) call(breaker, "failure");
    expect(breaker.state).toBe("closed");
    call(breaker, "failure");
    expect(breaker.state).toBe("open");
    expect(breaker.admit()).toEqual({ ok: false, state: "open", retryInMs: 30_000 });
  });

  it("refuses while open, half-opens after the cool-down with one trial at a time, closes after 2 successes", () => {
    const clock = fakeClock();
    const breaker = new CircuitBreaker(defaultCircuitBreaker, clock.now);
    for (let index = 0; index < 5; index++) call(breaker, "failure");
    clock.advance(29_999);
    expect(breaker.admit()).toEqual({ ok: false, state: "open", retryInMs: 1 });
    clock.advance(1);
    expect(breaker.state).toBe("half-open");

    const trial = breaker.admit();
    expect(trial).toEqual({ ok: true, trial: true });
    // A second caller while the trial runs is refused.
    expect(breaker.admit()).toEqual({ ok: false, state: "half-open", retryInMs: 0 });
    breaker.success(trial);
    expect(breaker.state).toBe("half-open");
    expect(call(breaker, "success")).toBe(true);
    expect(breaker.state).toBe("closed");
    expect(breaker.admit()).toEqual({ ok: true, trial: false });
  });

  it("re-opens on a failed trial, for a whole new cool-down", () => {
    const clock = fakeClock();
    const breaker = new CircuitBreaker(defaultCircuitBreaker, clock.now);
    for (let index = 0; index < 5; index++) call(breaker, "failure");
    clock.advance(30_000);
    expect(call(breaker, "success")).toBe(true);
    expect(call(breaker, "failure")).toBe(true);
    expect(breaker.state).toBe("open");
    clock.advance(29_000);
    expect(breaker.admit()).toMatchObject({ ok: false, state: "open", retryInMs: 1_000 });
  });

  it("an abandoned trial (a cancelled call) frees the trial slot without a verdict", () => {
    const clock = fakeClock();
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 10, successThreshold: 1 }, clock.now);
    call(breaker, "failure");
    clock.advance(10);
    const trial = breaker.admit();
    breaker.abandon(trial);
    expect(breaker.state).toBe("half-open");
    expect(call(breaker, "success")).toBe(true);
    expect(breaker.state).toBe("closed");
  });

  it("ignores a late result from a call admitted before the circuit opened", () => {
    const clock = fakeClock();
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 100, successThreshold: 2 }, clock.now);
    const slow = breaker.admit();
    call(breaker, "failure");
    call(breaker, "failure");
    expect(breaker.state).toBe("open");
    clock.advance(100);
    const trial = breaker.admit();
    breaker.success(slow);
    breaker.success(trial);
    // One trial success only: the slow call's success did not count as the second.
    expect(breaker.state).toBe("half-open");
  });
});
