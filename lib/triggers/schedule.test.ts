import { describe, expect, it } from "vitest";
import type { Schedule } from "../graph";
import { dueTick, nextFireTimes, nextTick } from "./schedule";

const at = (iso: string) => new Date(iso);
const isoList = (dates: Date[]) => dates.map((date) => date.toISOString());
const everyTwoSeconds: Schedule = { cron: "*/2 * * * * *", timezone: "UTC", missed: "run-latest" };
const createdAt = at("2026-01-01T00:00:00Z");

describe("nextFireTimes", () => {
  it("lists every-2-seconds ticks strictly after the moment", () => {
    expect(isoList(nextFireTimes(everyTwoSeconds, at("2026-01-01T00:00:02Z"), 3))).toEqual(["2026-01-01T00:00:04.000Z", "2026-01-01T00:00:06.000Z", "2026-01-01T00:00:08.000Z"]);
  });

  it("reads the expression in the time zone, across DST changes", () => {
    const daily = { cron: "30 9 * * *", timezone: "America/New_York", missed: "skip" } as const;
    // Clocks go forward on 2026-03-08: 09:30 is 14:30Z before and 13:30Z after.
    expect(isoList(nextFireTimes(daily, at("2026-03-06T12:00:00Z"), 3))).toEqual(["2026-03-06T14:30:00.000Z", "2026-03-07T14:30:00.000Z", "2026-03-08T13:30:00.000Z"]);
    // 02:30 does not exist in Berlin on 2026-03-29 (fires at 03:30), and happens twice on 2026-10-25 (fires once).
    const night = { cron: "30 2 * * *", timezone: "Europe/Berlin", missed: "skip" } as const;
    expect(isoList(nextFireTimes(night, at("2026-03-28T00:00:00Z"), 3))).toEqual(["2026-03-28T01:30:00.000Z", "2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"]);
    expect(isoList(nextFireTimes(night, at("2026-10-24T00:00:00Z"), 3))).toEqual(["2026-10-24T00:30:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  });

  it("aligns every N minutes to the epoch on the zone's wall clock", () => {
    const quarter = { everyMinutes: 15, timezone: "Asia/Kolkata", missed: "skip" } as const;
    // Kolkata is UTC+05:30: local quarters are :00/:15/:30/:45 there, which are also quarters in UTC.
    expect(isoList(nextFireTimes(quarter, at("2026-01-01T00:07:00Z"), 2))).toEqual(["2026-01-01T00:15:00.000Z", "2026-01-01T00:30:00.000Z"]);
    const daily = { everyMinutes: 1440, timezone: "Asia/Kolkata", missed: "skip" } as const;
    expect(isoList(nextFireTimes(daily, at("2026-01-01T00:00:00Z"), 2))).toEqual(["2026-01-01T18:30:00.000Z", "2026-01-02T18:30:00.000Z"]);
    const seven = { everyMinutes: 7, timezone: "UTC", missed: "skip" } as const;
    const [first, second] = nextFireTimes(seven, at("2026-01-01T00:00:00Z"), 2);
    expect(first.getTime() % (7 * 60_000)).toBe(0);
    expect(second.getTime() - first.getTime()).toBe(7 * 60_000);
  });

  it("keeps every N minutes on local hours across DST", () => {
    const twoHours = { everyMinutes: 120, timezone: "Europe/Berlin", missed: "skip" } as const;
    // Spring: 00:00 CET (23:00Z), then the clock skips 02:00, so 04:00 CEST (02:00Z).
    expect(isoList(nextFireTimes(twoHours, at("2026-03-28T22:30:00Z"), 3))).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T02:00:00.000Z", "2026-03-29T04:00:00.000Z"]);
    // Autumn: 02:00 happens twice, in CEST (00:00Z) and CET (01:00Z).
    expect(isoList(nextFireTimes(twoHours, at("2026-10-24T21:30:00Z"), 4))).toEqual(["2026-10-24T22:00:00.000Z", "2026-10-25T00:00:00.000Z", "2026-10-25T01:00:00.000Z", "2026-10-25T03:00:00.000Z"]);
  });

  it("has no fire times for a schedule that does not check", () => {
    expect(nextFireTimes({ cron: "nope", timezone: "UTC", missed: "skip" }, createdAt)).toEqual([]);
  });
});

describe("dueTick", () => {
  it("gives the scheduled tick, not now, when noticed on time", () => {
    expect(dueTick(everyTwoSeconds, { lastTickAt: at("2026-01-01T00:00:02Z"), now: at("2026-01-01T00:00:04.250Z"), createdAt })).toEqual(at("2026-01-01T00:00:04Z"));
    expect(dueTick(everyTwoSeconds, { lastTickAt: at("2026-01-01T00:00:02Z"), now: at("2026-01-01T00:00:03.999Z"), createdAt })).toBeNull();
  });

  it("never gives a tick at or before the last one, nor before the schedule held", () => {
    expect(dueTick(everyTwoSeconds, { lastTickAt: at("2026-01-01T00:00:04Z"), now: at("2026-01-01T00:00:04Z"), createdAt })).toBeNull();
    expect(dueTick(everyTwoSeconds, { lastTickAt: null, now: at("2026-01-01T00:00:03Z"), createdAt: at("2026-01-01T00:00:02.500Z") })).toBeNull();
    expect(dueTick(everyTwoSeconds, { lastTickAt: null, now: at("2026-01-01T00:00:02Z"), createdAt: at("2026-01-01T00:00:02Z") })).toEqual(at("2026-01-01T00:00:02Z"));
    expect(dueTick(everyTwoSeconds, { lastTickAt: at("2025-12-31T00:00:00Z"), now: at("2026-01-01T00:00:01Z"), createdAt })).toEqual(at("2026-01-01T00:00:00Z"));
  });

  it("runs the latest missed tick once with run-latest", () => {
    const hourly: Schedule = { cron: "0 * * * *", timezone: "UTC", missed: "run-latest" };
    const state = { lastTickAt: at("2026-01-01T03:00:00Z"), now: at("2026-01-01T07:20:00Z"), createdAt };
    expect(dueTick(hourly, state)).toEqual(at("2026-01-01T07:00:00Z"));
    expect(dueTick(hourly, { ...state, lastTickAt: at("2026-01-01T07:00:00Z") })).toBeNull();
    expect(dueTick(everyTwoSeconds, { lastTickAt: at("2026-01-01T00:00:00Z"), now: at("2026-01-08T00:00:01Z"), createdAt })).toEqual(at("2026-01-08T00:00:00Z"));
  });

  it("runs none of the missed ticks with skip, and the next one on time", () => {
    const hourly: Schedule = { cron: "0 * * * *", timezone: "UTC", missed: "skip" };
    const lastTickAt = at("2026-01-01T03:00:00Z");
    expect(dueTick(hourly, { lastTickAt, now: at("2026-01-01T07:20:00Z"), createdAt })).toBeNull();
    expect(dueTick(hourly, { lastTickAt, now: at("2026-01-01T08:00:03Z"), createdAt })).toEqual(at("2026-01-01T08:00:00Z"));
    expect(dueTick(hourly, { lastTickAt, now: at("2026-01-01T08:00:03Z"), createdAt, graceMs: 1_000 })).toBeNull();
  });

  it("applies the policy to every N minutes and to zones", () => {
    const quarter: Schedule = { everyMinutes: 15, timezone: "Europe/Berlin", missed: "run-latest" };
    expect(dueTick(quarter, { lastTickAt: at("2026-03-29T00:45:00Z"), now: at("2026-03-29T02:05:00Z"), createdAt })).toEqual(at("2026-03-29T02:00:00Z"));
    expect(dueTick({ ...quarter, missed: "skip" }, { lastTickAt: at("2026-03-29T00:45:00Z"), now: at("2026-03-29T02:05:00Z"), createdAt })).toBeNull();
    expect(dueTick(quarter, { lastTickAt: at("2026-03-29T00:45:00Z"), now: at("2026-03-29T01:00:02Z"), createdAt })).toEqual(at("2026-03-29T01:00:00Z"));
  });

  it("finds a missed tick across a DST change with a cron in a zone", () => {
    const night: Schedule = { cron: "30 2 * * *", timezone: "Europe/Berlin", missed: "run-latest" };
    expect(dueTick(night, { lastTickAt: at("2026-10-20T00:30:00Z"), now: at("2026-10-26T12:00:00Z"), createdAt })).toEqual(at("2026-10-26T01:30:00Z"));
    expect(nextTick(night, at("2026-10-26T01:30:00Z"))).toEqual(at("2026-10-27T01:30:00Z"));
  });
});
