import { checkSchedule, type Schedule } from "../graph";
import { dueTick, nextTick } from "./schedule";

/** One schedule as the store lists it. */
export interface ScheduledTrigger {
  triggerId: string;
  schedule: Schedule;
  lastTickAt: Date | null;
  /** Since when the schedule holds: created, changed or resumed (see dueTick). */
  createdAt: Date;
  paused: boolean;
}

/**
 * What the ticker needs from the world. `claimTick` is where exactly one
 * run per tick is made across workers: the store inserts a unique
 * (trigger, tick time) row and starts the run with it, answering "started",
 * or finds the row there and answers "taken". Both mean the tick is done.
 */
export interface TickerPorts {
  listSchedules(): Promise<ScheduledTrigger[]>;
  claimTick(triggerId: string, tickAt: Date): Promise<"started" | "taken">;
}

export interface TickerOptions {
  /** How often the list is read again, to see new, changed and paused schedules (default 30 s). */
  refreshMs?: number;
  /** How soon to try again after a port failed (default 1 s). */
  retryMs?: number;
  graceMs?: number;
  now?: () => number;
  /** Told about every failed port call; the ticker goes on. */
  onError?: (error: unknown) => void;
  /** Told when the tick claimed here came after ticks that ran nowhere (missed while nothing ran): from the first of those, and the one that runs. */
  onMissedTicks?: (triggerId: string, firstMissed: Date, ran: Date) => void;
}

/**
 * Runs schedules: sleeps until the next tick of any schedule (or the next
 * re-read of the list, whichever is first), claims every tick due, and
 * sleeps again. No polling between ticks. Several tickers (one per worker)
 * may share one store: the claim decides which of them starts the run.
 *
 * @example
 * const ticker = new ScheduleTicker({ listSchedules, claimTick }, { onError: log });
 * ticker.start();
 * // on shutdown
 * ticker.stop();
 */
export class ScheduleTicker {
  private readonly refreshMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private entries: ScheduledTrigger[] = [];
  /** The last tick each schedule claimed here, which the list may not show yet. */
  private readonly claimed = new Map<string, number>();
  private refreshAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly ports: TickerPorts,
    private readonly options: TickerOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 30_000;
    this.retryMs = options.retryMs ?? 1_000;
    this.now = options.now ?? (() => Date.now());
  }

  /** Reads the list and claims what is due, then keeps waking at each tick until stop(). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.refreshAt = 0;
    // Started again while a stopped wake still runs: one wake at a time, so this one follows it.
    if (this.running) void this.running.then(() => this.stopped || this.wake());
    else this.wake();
  }

  /** Reads the list again at once, e.g. after a schedule was saved. */
  refresh(): void {
    this.refreshAt = 0;
    if (!this.stopped && !this.running) this.wake();
  }

  /** Clears the timer; a wake under way finishes its claims and sets no new timer. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The wake under way, for tests and shutdown to await. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private wake(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.tick().finally(() => {
      this.running = undefined;
    });
  }

  private async tick(): Promise<void> {
    let failed = false;
    if (this.now() >= this.refreshAt) {
      try {
        this.entries = usable(await this.ports.listSchedules(), this.options.onError);
        this.refreshAt = this.now() + this.refreshMs;
      } catch (error) {
        failed = true;
        this.refreshAt = this.now() + this.retryMs;
        this.options.onError?.(error);
      }
    }
    for (const entry of this.entries) {
      if (this.stopped) return;
      if (!(await this.claimDue(entry))) failed = true;
    }
    if (!this.stopped) this.sleep(failed);
  }

  /** Claims the entry's due tick, if any; false when the claim failed. */
  private async claimDue(entry: ScheduledTrigger): Promise<boolean> {
    if (entry.paused) return true;
    const lastTick = this.lastTick(entry);
    const tick = dueTick(entry.schedule, { lastTickAt: lastTick, now: new Date(this.now()), createdAt: entry.createdAt, graceMs: this.options.graceMs });
    if (!tick) return true;
    const first = nextTick(entry.schedule, new Date(Math.max(lastTick?.getTime() ?? Number.NEGATIVE_INFINITY, entry.createdAt.getTime() - 1)));
    try {
      const claim = await this.ports.claimTick(entry.triggerId, tick);
      this.claimed.set(entry.triggerId, tick.getTime());
      if (claim === "started" && first && first.getTime() < tick.getTime()) this.options.onMissedTicks?.(entry.triggerId, first, tick);
      return true;
    } catch (error) {
      this.options.onError?.(error);
      return false;
    }
  }

  private sleep(failed: boolean): void {
    const now = this.now();
    let wakeAt = failed ? Math.min(this.refreshAt, now + this.retryMs) : this.refreshAt;
    for (const entry of this.entries) {
      if (entry.paused) continue;
      const lastTick = this.lastTick(entry);
      const after = Math.max(now, lastTick?.getTime() ?? Number.NEGATIVE_INFINITY, entry.createdAt.getTime() - 1);
      const next = nextTick(entry.schedule, new Date(after));
      if (next) wakeAt = Math.min(wakeAt, next.getTime());
    }
    this.timer = setTimeout(() => this.wake(), Math.max(0, wakeAt - now));
  }

  private lastTick(entry: ScheduledTrigger): Date | null {
    const here = this.claimed.get(entry.triggerId);
    const listed = entry.lastTickAt?.getTime();
    const latest = Math.max(here ?? Number.NEGATIVE_INFINITY, listed ?? Number.NEGATIVE_INFINITY);
    return Number.isFinite(latest) ? new Date(latest) : null;
  }
}

/** The schedules that check; each other one is reported (saving refuses them, so one here is a bug or an old row). */
function usable(entries: ScheduledTrigger[], onError: TickerOptions["onError"]): ScheduledTrigger[] {
  return entries.filter((entry) => {
    const issues = checkSchedule(entry.schedule);
    if (issues.length > 0) onError?.(new Error(`The schedule of trigger ${entry.triggerId} is skipped: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ")}`));
    return issues.length === 0;
  });
}
