import { describe, expect, it } from "vitest";
import { checkSchedule } from "./schedule-check";

const everyTwoSeconds = { cron: "*/2 * * * * *", timezone: "UTC", missed: "run-latest" } as const;

describe("checkSchedule", () => {
  it("accepts 5 and 6 field expressions and every N minutes", () => {
    expect(checkSchedule({ cron: "*/5 * * * *", timezone: "Europe/Berlin", missed: "skip" })).toEqual([]);
    expect(checkSchedule(everyTwoSeconds)).toEqual([]);
    expect(checkSchedule({ everyMinutes: 15, timezone: "UTC", missed: "run-latest" })).toEqual([]);
  });

  it("says what is wrong with a cron expression, naming the field", () => {
    expect(checkSchedule({ cron: "61 * * * *", timezone: "UTC", missed: "skip" })).toEqual([
      { field: "cron", message: expect.stringMatching(/^"61 \* \* \* \*" is not a valid cron expression: Invalid value for minute: 61 \(5 fields/) },
    ]);
    expect(checkSchedule({ cron: "* * *", timezone: "UTC", missed: "skip" })[0].message).toBe('"* * *" has 3 fields; a cron expression has 5 fields: minute hour day month weekday, or 6 with seconds first');
    expect(checkSchedule({ cron: "* * * * * * *", timezone: "UTC", missed: "skip" })[0].message).toMatch(/has 7 fields/);
    expect(checkSchedule({ cron: "0 0 31 2 *", timezone: "UTC", missed: "skip" })).toEqual([{ field: "cron", message: '"0 0 31 2 *" never fires: no date matches it' }]);
  });

  it("refuses an unknown time zone, both or neither of cron and every N minutes, and a bad N", () => {
    expect(checkSchedule({ cron: "* * * * *", timezone: "Mars/Olympus", missed: "skip" })).toEqual([{ field: "timezone", message: expect.stringContaining('"Mars/Olympus" is no IANA time zone') }]);
    expect(checkSchedule({ cron: "* * * * *", everyMinutes: 5, timezone: "UTC", missed: "skip" })).toEqual([{ field: "cron", message: expect.stringContaining("not both") }]);
    expect(checkSchedule({ cron: " ", timezone: "UTC", missed: "skip" })).toEqual([{ field: "cron", message: expect.stringContaining("give a cron expression") }]);
    expect(checkSchedule({ everyMinutes: 2.5, timezone: "UTC", missed: "skip" })).toEqual([{ field: "everyMinutes", message: "must be a whole number of minutes, 1 or more, not 2.5" }]);
    expect(checkSchedule({ everyMinutes: 0, timezone: "UTC", missed: "skip" })[0].field).toBe("everyMinutes");
  });
});
