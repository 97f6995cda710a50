import { describe, expect, it } from "vitest";
import { upcomingFireTimes } from "./fire-times";

const now = new Date("2026-03-27T12:00:00Z");

describe("upcomingFireTimes", () => {
  it("lists a schedule Start's next five fire times in its time zone", () => {
    const times = upcomingFireTimes({ trigger: "schedule", cron: "0 9 * * *", timezone: "Europe/Berlin" }, now);
    expect(times.map((time) => time.iso)).toEqual(["2026-03-28T08:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-30T07:00:00.000Z", "2026-03-31T07:00:00.000Z", "2026-04-01T07:00:00.000Z"]);
    expect(times[0].inZone).toMatch(/^Sat,? 28 Mar 2026,? 09:00:00$/);
  });

  it("lists nothing for other Starts and for schedules with a problem", () => {
    expect(upcomingFireTimes({ trigger: "webhook" }, now)).toEqual([]);
    expect(upcomingFireTimes({ trigger: "schedule", cron: "0 25 * * *" }, now)).toEqual([]);
    expect(upcomingFireTimes({ trigger: "schedule", everyMinutes: 30, timezone: "Nowhere/Town" }, now)).toEqual([]);
  });
});
