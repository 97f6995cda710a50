import { Cron } from "croner";
import { checkSchedule, cronOptions, type Schedule } from "../graph";
import { latestEveryTick, nextEveryTick } from "./every-minutes";

/**
 * The clock arithmetic of schedules (see checkSchedule in lib/graph for the
 * check). A tick is the scheduled fire time, never the time it was noticed:
 * it names the run and is the key that makes one run per tick.
 */

/** How late a tick may be noticed and still count as on time; later ones are missed ticks. */
export const defaultTickGraceMs = 10_000;

/** The next `count` fire times after `from`; none when the schedule does not check. */
export function nextFireTimes(schedule: Schedule, from: Date, count = 5): Date[] {
  if (checkSchedule(schedule).length > 0) return [];
  const times: Date[] = [];
  let after: Date | null = from;
  while (times.length < count && (after = nextTick(schedule, after)) !== null) times.push(after);
  return times;
}

export interface TickState {
  /** The last tick claimed for this schedule, by any worker. */
  lastTickAt: Date | null;
  now: Date;
  /** Since when the schedule holds: created, changed or resumed. No tick before it runs. */
  createdAt: Date;
  graceMs?: number;
}

/**
 * The tick that should run now, if any: the latest tick at or before `now`
 * that is after `lastTickAt` and not before `createdAt`. A tick noticed
 * within the grace window is on time and runs (earlier ones it passed are
 * dropped). One noticed later was missed while nothing ran: "run-latest"
 * runs the latest missed tick once, "skip" runs none of them and waits for
 * the next.
 *
 * @example
 * dueTick(schedule, { lastTickAt: row.lastTickAt, now: new Date(), createdAt: row.createdAt }) // Date | null
 */
export function dueTick(schedule: Schedule, { lastTickAt, now, createdAt, graceMs = defaultTickGraceMs }: TickState): Date | null {
  const after = Math.max(lastTickAt?.getTime() ?? Number.NEGATIVE_INFINITY, createdAt.getTime() - 1);
  const first = nextTick(schedule, new Date(after));
  if (!first || first.getTime() > now.getTime()) return null;
  const latest = latestTickFrom(schedule, first, now);
  if (now.getTime() - latest.getTime() <= graceMs) return latest;
  return schedule.missed === "run-latest" ? latest : null;
}

/** The first tick strictly after `after`, or null when there is none. */
export function nextTick(schedule: Schedule, after: Date): Date | null {
  if (schedule.everyMinutes !== undefined) return new Date(nextEveryTick(schedule.everyMinutes, schedule.timezone, after.getTime()));
  return cronOf(schedule).nextRun(after);
}

/** The latest tick at or before `at`, given `first`, a tick at or before it. */
function latestTickFrom(schedule: Schedule, first: Date, at: Date): Date {
  if (schedule.everyMinutes !== undefined) return new Date(latestEveryTick(schedule.everyMinutes, schedule.timezone, at.getTime()));
  const cron = cronOf(schedule);
  const latest = previousCronRun(cron, at);
  // croner walks backward separately from forward; trust it only when the two agree.
  if (latest && latest.getTime() >= first.getTime() && latest.getTime() <= at.getTime() && (cron.nextRun(latest)?.getTime() ?? Infinity) > at.getTime()) return latest;
  let tick = first;
  for (let next = cron.nextRun(tick); next && next.getTime() <= at.getTime(); next = cron.nextRun(tick)) tick = next;
  return tick;
}

function previousCronRun(cron: Cron, at: Date): Date | undefined {
  try {
    // previousRuns counts from the second before its reference, so start one second after `at`'s.
    return cron.previousRuns(1, new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000))[0];
  } catch {
    return undefined;
  }
}

const crons = new Map<string, Cron>();

function cronOf(schedule: Schedule): Cron {
  const key = `${schedule.timezone}\n${schedule.cron ?? ""}`;
  let cron = crons.get(key);
  if (!cron) {
    if (crons.size >= 1000) crons.clear();
    cron = new Cron(schedule.cron ?? "", cronOptions(schedule.timezone));
    crons.set(key, cron);
  }
  return cron;
}
