import { checkSchedule, startSchedule } from "@/lib/graph";
// The schedule half of lib/triggers is browser-safe (croner and lib/graph only); its index also holds the server's webhook code.
import { nextFireTimes } from "@/lib/triggers/schedule";

export interface FireTime {
  iso: string;
  /** In the schedule's time zone, e.g. "Mon, 7 Dec 2026, 09:00:00". */
  inZone: string;
}

/** A schedule Start's next fire times after `now`, for the inspector; empty for other Starts and schedules that do not check. */
export function upcomingFireTimes(config: Record<string, unknown>, now: Date, count = 5): FireTime[] {
  const schedule = startSchedule(config);
  if (!schedule || checkSchedule(schedule).length > 0) return [];
  const format = new Intl.DateTimeFormat("en-GB", { timeZone: schedule.timezone, weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  return nextFireTimes(schedule, now, count).map((time) => ({ iso: time.toISOString(), inZone: format.format(time) }));
}
