import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it("keeps a path of the app, with its query and fragment", () => {
    expect(safeNext("/runs?status=failed#top")).toBe("/runs?status=failed#top");
    expect(safeNext("/%2F%2Fstill-a-path")).toBe("/%2F%2Fstill-a-path");
  });

  it("refuses whatever a browser would take to another host, and anything that is not a path", () => {
    for (const value of ["//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/.//evil.example", "/a/../..//evil.example", "https://evil.example/", "runs", "", null, undefined, 7]) {
      expect(safeNext(value), JSON.stringify(value)).toBe("/");
    }
  });
});
