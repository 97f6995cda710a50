const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * How far the time zone's wall clock is ahead of UTC at that instant, in
 * milliseconds (Europe/Berlin in summer: 7,200,000). Whole seconds: the
 * zones of today never shift by less.
 */
export function zoneOffset(timeZone: string, at: number): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(at / 1000) * 1000;
}
