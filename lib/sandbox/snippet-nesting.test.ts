import { describe, expect, it } from "vitest";
import { nestingDepth } from "./snippet-nesting";

describe("nestingDepth", () => {
  it("counts the deepest bracket nesting of any kind", () => {
    expect(nestingDepth("return 1")).toBe(0);
    expect(nestingDepth("return f([a, {b: (c)}])")).toBe(4);
    expect(nestingDepth("return [a][b][c]")).toBe(1);
  });

  it("never goes below zero on stray closers", () => {
    expect(nestingDepth(")))((")).toBe(2);
  });

  it("counts brackets in strings too, erring on the deep side", () => {
    expect(nestingDepth("return '((('")).toBe(3);
  });
});
