import { describe, expect, it } from "vitest";
import { wholeNumber } from "./query-numbers";

describe("wholeNumber", () => {
  const params = new URLSearchParams("offset=200&limit=-1&after=abc&empty=");
  it("reads a whole number, or the fallback when the parameter is absent or empty", () => {
    expect(wholeNumber(params, "offset", 0)).toEqual({ value: 200 });
    expect(wholeNumber(params, "missing", 7)).toEqual({ value: 7 });
    expect(wholeNumber(params, "empty", null)).toEqual({ value: null });
  });
  it("names the parameter and the text it refused", () => {
    expect(wholeNumber(params, "limit", 100)).toEqual({ error: '`limit` must be a whole number ≥ 0, not "-1".' });
    expect(wholeNumber(params, "after", null)).toEqual({ error: '`after` must be a whole number ≥ 0, not "abc".' });
  });
});
