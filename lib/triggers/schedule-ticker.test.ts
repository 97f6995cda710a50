import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Schedule } from "../graph";
import { type ScheduledTrigger, ScheduleTicker, type TickerPorts } from "./schedule-ticker";

const start = new Date("2026-01-01T00:00:00.500Z");
const everyTwoSeconds: Schedule = { cron: "*/2 * * * * *", timezone: "UTC", missed: "run-latest" };

/** A store double: the schedules in memory, and a claim that inserts a unique (trigger, tick) row. */
class InMemoryTriggerStore implements TickerPorts {
  readonly rows = new Set<string>();
  readonly started: string[] = [];
  listCalls = 0;
  failClaims = 0;
  constructor(public schedules: ScheduledTrigger[]) {}

  async listSchedules(): Promise<ScheduledTrigger[]> {
    this.listCalls += 1;
    return this.schedules.map((entry) => ({ ...entry, lastTickAt: this.lastTick(entry.triggerId) ?? entry.lastTickAt }));
  }

  async claimTick(triggerId: string, tickAt: Date): Promise<"started" | "taken"> {
    await Promise.resolve();
    if (this.failClaims > 0) {
      this.failClaims -= 1;
      throw new Error("database is down");
    }
    const key = `${triggerId}@${tickAt.toISOString()}`;
    if (this.rows.has(key)) return "taken";
    this.rows.add(key);
    this.started.push(key);
    return "started";
  }

  private lastTick(triggerId: string): Date | null {
    const ticks = [...this.rows].filter((key) => key.startsWith(`${triggerId}@`)).map((key) => key.slice(triggerId.length + 1)).sort();
    return ticks.length > 0 ? new Date(ticks.at(-1)!) : null;
  }
}

const trigger = (overrides: Partial<ScheduledTrigger> = {}): ScheduledTrigger => ({
  triggerId: "t1",
  schedule: everyTwoSeconds,
  lastTickAt: null,
  createdAt: start,
  paused: false,
  ...overrides,
});

/** Advances the fake clock in steps, letting each wake's claims settle. */
async function advance(ms: number, step = 250): Promise<void> {
  for (let passed = 0; passed < ms; passed += step) await vi.advanceTimersByTimeAsync(step);
}

beforeEach(() => vi.useFakeTimers({ now: start }));
afterEach(() => vi.useRealTimers());

describe("ScheduleTicker", () => {
  it("claims each every-2-seconds tick once, at its time, without polling in between", async () => {
    const store = new InMemoryTriggerStore([trigger()]);
    const ticker = new ScheduleTicker(store, { refreshMs: 60_000 });
    ticker.start();
    await advance(20_000);
    ticker.stop();
    expect(store.started).toEqual(Array.from({ length: 10 }, (_, index) => `t1@2026-01-01T00:00:${String(2 + index * 2).padStart(2, "0")}.000Z`));
    expect(store.listCalls).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("makes exactly one claim per tick when two tickers share one store", async () => {
    const store = new InMemoryTriggerStore([trigger(), trigger({ triggerId: "t2", schedule: { everyMinutes: 1, timezone: "UTC", missed: "skip" } })]);
    const claims = vi.spyOn(store, "claimTick");
    const tickers = [new ScheduleTicker(store, { refreshMs: 5_000 }), new ScheduleTicker(store, { refreshMs: 7_000 })];
    for (const ticker of tickers) ticker.start();
    await advance(130_000, 500);
    for (const ticker of tickers) ticker.stop();
    const t1 = store.started.filter((key) => key.startsWith("t1@"));
    expect(t1).toHaveLength(65);
    expect(new Set(t1).size).toBe(65);
    expect(store.started.filter((key) => key.startsWith("t2@"))).toEqual(["t2@2026-01-01T00:01:00.000Z", "t2@2026-01-01T00:02:00.000Z"]);
    expect(claims.mock.calls.length).toBeGreaterThan(store.started.length);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("runs the latest missed tick once on start with run-latest, and none with skip", async () => {
    const lastTickAt = new Date("2025-12-31T23:00:00Z");
    const store = new InMemoryTriggerStore([
      trigger({ triggerId: "latest", lastTickAt, createdAt: new Date("2025-12-01T00:00:00Z") }),
      trigger({ triggerId: "skip", lastTickAt, createdAt: new Date("2025-12-01T00:00:00Z"), schedule: { ...everyTwoSeconds, missed: "skip" } }),
    ]);
    // Noticed 500 ms late with a 100 ms grace: the 00:00:00 tick counts as missed.
    const ticker = new ScheduleTicker(store, { graceMs: 100 });
    ticker.start();
    await ticker.settled();
    expect(store.started).toEqual(["latest@2026-01-01T00:00:00.000Z"]);
    await advance(1_600);
    ticker.stop();
    expect(store.started).toEqual(["latest@2026-01-01T00:00:00.000Z", "latest@2026-01-01T00:00:02.000Z", "skip@2026-01-01T00:00:02.000Z"]);
  });

  it("sees new and paused schedules when it reads the list again", async () => {
    const store = new InMemoryTriggerStore([]);
    const ticker = new ScheduleTicker(store, { refreshMs: 10_000 });
    ticker.start();
    await advance(5_000);
    store.schedules = [trigger({ createdAt: new Date(Date.now()) })];
    // Read again at 00:00:10.5: the tick of 00:00:10 is within the grace window.
    await advance(5_000);
    expect(store.started).toEqual(["t1@2026-01-01T00:00:10.000Z"]);
    await advance(2_000);
    expect(store.started).toEqual(["t1@2026-01-01T00:00:10.000Z", "t1@2026-01-01T00:00:12.000Z"]);
    store.schedules = [trigger({ paused: true })];
    ticker.refresh();
    await advance(6_000);
    ticker.stop();
    expect(store.started).toEqual(["t1@2026-01-01T00:00:10.000Z", "t1@2026-01-01T00:00:12.000Z"]);
  });

  it("retries a failed claim after retryMs and reports the failure", async () => {
    const store = new InMemoryTriggerStore([trigger()]);
    store.failClaims = 1;
    const errors: unknown[] = [];
    const ticker = new ScheduleTicker(store, { retryMs: 1_000, onError: (error) => errors.push(error) });
    ticker.start();
    await advance(2_000);
    expect(errors).toHaveLength(1);
    expect(store.started).toEqual([]);
    await advance(500);
    ticker.stop();
    expect(store.started).toEqual(["t1@2026-01-01T00:00:02.000Z"]);
  });

  it("skips a stored schedule that does not check, saying why", async () => {
    const store = new InMemoryTriggerStore([trigger({ triggerId: "bad", schedule: { cron: "61 * * * *", timezone: "UTC", missed: "skip" } }), trigger()]);
    const errors: Error[] = [];
    const ticker = new ScheduleTicker(store, { onError: (error) => errors.push(error as Error) });
    ticker.start();
    await advance(2_000);
    ticker.stop();
    expect(errors[0].message).toMatch(/trigger bad is skipped: cron: "61 \* \* \* \*" is not a valid cron expression/);
    expect(store.started).toEqual(["t1@2026-01-01T00:00:02.000Z"]);
  });

  it("sets no timer after stop, even when stopped during a wake", async () => {
    const store = new InMemoryTriggerStore([trigger()]);
    const ticker = new ScheduleTicker(store);
    ticker.start();
    ticker.stop();
    await ticker.settled();
    expect(vi.getTimerCount()).toBe(0);
    await advance(4_000);
    expect(store.started).toEqual([]);
  });

  it("started again during a stopped wake, keeps one timer and claims each tick once", async () => {
    const store = new InMemoryTriggerStore([trigger()]);
    const ticker = new ScheduleTicker(store);
    ticker.start();
    ticker.stop();
    ticker.start();
    await vi.advanceTimersByTimeAsync(0);
    await ticker.settled();
    expect(vi.getTimerCount()).toBe(1);
    await advance(4_000);
    expect(vi.getTimerCount()).toBe(1);
    ticker.stop();
    expect(store.started).toEqual(["t1@2026-01-01T00:00:02.000Z", "t1@2026-01-01T00:00:04.000Z"]);
  });
});
