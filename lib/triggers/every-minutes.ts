import { zoneOffset } from "./zone-offset";

/**
 * Every N minutes, aligned to the epoch on the time zone's wall clock: a tick
 * is an instant whose local time, counted in minutes from 1970-01-01 00:00,
 * is a multiple of N. So every 15 minutes fires at :00, :15, :30 and :45,
 * every 120 minutes at even local hours, every 1440 at local midnight, from
 * whenever the schedule was saved. When clocks go forward, the first tick is
 * the first aligned time after the jump; when they go back, a repeated wall
 * time fires again (every 120 minutes fires at 02:00 twice that night).
 */
export function nextEveryTick(minutes: number, timeZone: string, after: number): number {
  return firstTickFrom(minutes * 60_000, timeZone, after + 1);
}

/** The latest tick at or before `at`. */
export function latestEveryTick(minutes: number, timeZone: string, at: number): number {
  const period = minutes * 60_000;
  let bound = at;
  for (;;) {
    const offset = zoneOffset(timeZone, bound);
    const candidate = Math.floor((bound + offset) / period) * period - offset;
    const start = segmentStart(timeZone, bound, offset);
    if (candidate >= start) return candidate;
    bound = start - 1;
  }
}

/** The first tick at or after `from`, walking segments of constant offset. */
function firstTickFrom(period: number, timeZone: string, from: number): number {
  let bound = from;
  for (;;) {
    const offset = zoneOffset(timeZone, bound);
    const candidate = Math.ceil((bound + offset) / period) * period - offset;
    const end = segmentEnd(timeZone, bound, offset, candidate);
    if (end === null) return candidate;
    bound = end;
  }
}

/** The first instant after `bound`, up to `until`, where the offset is no longer `offset`; null when it still is at `until`. */
function segmentEnd(timeZone: string, bound: number, offset: number, until: number): number | null {
  if (zoneOffset(timeZone, until) === offset) return null;
  return narrowChange(timeZone, offset, Math.floor(bound / 1000), Math.ceil(until / 1000)).changed * 1000;
}

/**
 * Since when the offset has been `offset`, up to `bound`, looking back one
 * day (no zone changes twice in a day); minus infinity when it was the same
 * a day before. Exact for periods up to a day, which is what every N
 * minutes is for.
 */
function segmentStart(timeZone: string, bound: number, offset: number): number {
  const dayBefore = Math.floor((bound - 86_400_000) / 1000);
  if (zoneOffset(timeZone, dayBefore * 1000) === offset) return Number.NEGATIVE_INFINITY;
  return narrowChange(timeZone, offset, Math.floor(bound / 1000), dayBefore).same * 1000;
}

/** Bisects between a second with the offset and one without, to the two neighbouring seconds where it changes (offsets change on whole seconds). */
function narrowChange(timeZone: string, offset: number, same: number, changed: number): { same: number; changed: number } {
  while (Math.abs(changed - same) > 1) {
    const middle = Math.floor((same + changed) / 2);
    if (zoneOffset(timeZone, middle * 1000) === offset) same = middle;
    else changed = middle;
  }
  return { same, changed };
}
