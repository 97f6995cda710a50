import { Cron } from "croner";
import type { ConfigIssue } from "./node-type-info";

/**
 * A Start's schedule: a cron expression (5 fields, or 6 with seconds first)
 * or every N minutes, read in an IANA time zone, and what to do with ticks
 * missed while nothing ran. Here, in the lowest room, so the Start's config
 * check (the inspector as you type, save, run, lint) refuses a bad
 * expression with no validator to pass in; the clock arithmetic lives in
 * lib/triggers.
 */
export interface Schedule {
  cron?: string;
  everyMinutes?: number;
  timezone: string;
  missed: MissedTickPolicy;
}

export const missedTickPolicies = ["run-latest", "skip"] as const;
export type MissedTickPolicy = (typeof missedTickPolicies)[number];

/** The croner options every schedule is read with: 5 or 6 fields, seconds first when 6. */
export function cronOptions(timezone: string): { mode: "5-or-6-parts"; timezone: string } {
  return { mode: "5-or-6-parts", timezone };
}

/** True when the runtime knows the IANA time zone. */
export function isTimeZone(name: string): boolean {
  if (name.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a schedule, one issue per field, each message worded to
 * follow the field's name ("Cron expression: …"); empty when it is fine.
 *
 * @example
 * checkSchedule({ cron: "61 * * * *", timezone: "UTC", missed: "skip" })
 * // [{ field: "cron", message: "\"61 * * * *\" is not a valid cron expression: invalid value for minute: 61 …" }]
 */
export function checkSchedule(schedule: Schedule): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const hasCron = typeof schedule.cron === "string" && schedule.cron.trim() !== "";
  const hasEvery = schedule.everyMinutes !== undefined;
  if (hasCron && hasEvery) issues.push({ field: "cron", message: "give a cron expression or every N minutes, not both; clear one of them" });
  if (!hasCron && !hasEvery) issues.push({ field: "cron", message: "give a cron expression (e.g. */5 * * * *) or every N minutes" });
  if (hasEvery && !(Number.isInteger(schedule.everyMinutes) && schedule.everyMinutes! >= 1)) {
    issues.push({ field: "everyMinutes", message: `must be a whole number of minutes, 1 or more, not ${JSON.stringify(schedule.everyMinutes)}` });
  }
  const zoneKnown = isTimeZone(schedule.timezone);
  if (!zoneKnown) issues.push({ field: "timezone", message: `"${schedule.timezone}" is no IANA time zone; use a name such as UTC, Europe/Berlin or America/New_York` });
  if (!missedTickPolicies.includes(schedule.missed)) issues.push({ field: "missed", message: `is "run-latest" or "skip", not ${JSON.stringify(schedule.missed)}` });
  if (hasCron && !hasEvery) {
    const problem = cronProblem(schedule.cron!, zoneKnown ? schedule.timezone : "UTC");
    if (problem) issues.push({ field: "cron", message: problem });
  }
  return issues;
}

const fieldsInWords = "5 fields: minute hour day month weekday, or 6 with seconds first";

function cronProblem(expression: string, timezone: string): string | null {
  const fields = expression.trim().split(/\s+/).length;
  if (!expression.trim().startsWith("@") && fields !== 5 && fields !== 6) return `"${expression}" has ${fields} field${fields === 1 ? "" : "s"}; a cron expression has ${fieldsInWords}`;
  try {
    const next = new Cron(expression, cronOptions(timezone)).nextRun(new Date());
    return next ? null : `"${expression}" never fires: no date matches it`;
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/^Cron\w*:\s*/, "");
    return `"${expression}" is not a valid cron expression: ${detail} (${fieldsInWords})`;
  }
}
