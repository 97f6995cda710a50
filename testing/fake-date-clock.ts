import { vi } from "vitest";

/**
 * TEST DOUBLE: a fake system clock (Date only) for code that reads the time,
 * such as rate-limiter-flexible's windows: the test moves it instead of
 * sleeping. Undo with `vi.useRealTimers()` after each test.
 */
export function fakeDateClock(start = "2026-06-01T10:00:00Z") {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(start));
  return { advanceSeconds: (seconds: number) => vi.setSystemTime(new Date(Date.now() + seconds * 1000)) };
}
