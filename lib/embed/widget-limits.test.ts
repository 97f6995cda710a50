import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeDateClock } from "../../testing/fake-date-clock";
import { memoryLimiters, WidgetVisitorLimits } from "../auth/rate-limits";
import { checkWidgetSettings } from "./widget-settings";

afterEach(() => {
  vi.useRealTimers();
});

const widget = { widgetId: "cw_shop", perMinute: 2, overallPerMinute: 5 };
/** Visitor n, each from an address of their own (the per-address limit stays out of the way). */
const from = (visitor: number) => ({ ...widget, visitorId: `visitor-${visitor}`, address: `10.0.0.${visitor}` });

describe("a widget's cap across all its visitors", () => {
  it("refuses the message past the widget's limit from any visitor, names it, and lets them in again after the minute", async () => {
    const clock = fakeDateClock();
    const limits = new WidgetVisitorLimits(memoryLimiters);
    // Five visitors, one message each: all within the widget's 5 a minute.
    for (let visitor = 1; visitor <= 5; visitor++) expect(await limits.take(from(visitor))).toBeNull();
    // A sixth visitor, within their own limit, is over the widget's.
    const reached = await limits.take(from(6));
    expect(reached).toMatchObject({ limit: "widget" });
    expect(reached!.seconds).toBeGreaterThan(0);
    expect(reached!.seconds).toBeLessThanOrEqual(60);
    const { widgetLimitMessage } = await import("./widget-caller");
    expect(widgetLimitMessage({ perMinute: 2, overallPerMinute: 5 }, reached!)).toBe(
      `This chat is busy: its visitors together have sent more than its limit of 5 messages a minute; wait ${reached!.seconds} seconds and send again.`,
    );
    // Another widget is counted on its own.
    expect(await limits.take({ ...from(6), widgetId: "cw_blog" })).toBeNull();
    clock.advanceSeconds(61);
    expect(await limits.take(from(7))).toBeNull();
  });

  it("names the visitor's own limit first, and a visitor past it does not use up the widget's", async () => {
    fakeDateClock();
    const limits = new WidgetVisitorLimits(memoryLimiters);
    expect(await limits.take(from(1))).toBeNull();
    expect(await limits.take(from(1))).toBeNull();
    // Visitor 1 keeps sending past their 2 a minute: each is refused under the visitor's limit.
    for (let index = 0; index < 10; index++) expect(await limits.take(from(1))).toMatchObject({ limit: "visitor" });
    const { widgetLimitMessage } = await import("./widget-caller");
    expect(widgetLimitMessage({ perMinute: 2, overallPerMinute: 5 }, { limit: "visitor", seconds: 42 })).toBe("You have sent more than 2 messages in a minute; wait 42 seconds and send again.");
    // The widget counted visitor 1's two: three more visitors get in, the next one does not.
    for (let visitor = 2; visitor <= 4; visitor++) expect(await limits.take(from(visitor))).toBeNull();
    expect(await limits.take(from(5))).toMatchObject({ limit: "widget" });
  });
});

describe("a widget's settings form", () => {
  const valid = { name: "Shop", origins: "https://shop.example", perMinute: "10", overallPerMinute: "100" };

  it("takes the limits as whole numbers", () => {
    expect(checkWidgetSettings(valid)).toEqual({ ok: true, value: { name: "Shop", origins: ["https://shop.example"], perMinute: 10, overallPerMinute: 100 } });
    expect(checkWidgetSettings({ ...valid, overallPerMinute: 10 })).toMatchObject({ ok: true, value: { overallPerMinute: 10 } });
  });

  it.each([
    ["", "a whole number of messages all visitors together may send a minute, from 1 to 6000"],
    ["0", "from 1 to 6000"],
    ["6001", "from 1 to 6000"],
    ["12.5", "a whole number"],
    ["many", "a whole number"],
  ])("refuses %j as the widget's limit, naming the field", (overallPerMinute, words) => {
    const checked = checkWidgetSettings({ ...valid, overallPerMinute });
    expect(checked).toMatchObject({ ok: false, field: "overallPerMinute" });
    expect(checked.ok ? "" : checked.error).toMatch(/^overallPerMinute: /);
    expect(checked.ok ? "" : checked.error).toContain(words);
  });

  it("refuses a widget's limit below one visitor's, naming both", () => {
    expect(checkWidgetSettings({ ...valid, perMinute: "20", overallPerMinute: "5" })).toEqual({
      ok: false,
      field: "overallPerMinute",
      error: "overallPerMinute: the messages all visitors together may send a minute (5) is fewer than one visitor may send (20); raise it, or lower the visitor's limit.",
    });
  });

  it("still names the other fields", () => {
    expect(checkWidgetSettings({ ...valid, perMinute: "0" })).toMatchObject({ ok: false, field: "perMinute" });
    expect(checkWidgetSettings({ ...valid, name: " " })).toMatchObject({ ok: false, field: "name" });
    expect(checkWidgetSettings({ ...valid, origins: "https://*.example" })).toMatchObject({ ok: false, field: "origins" });
  });
});
