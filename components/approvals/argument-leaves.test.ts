import { describe, expect, it } from "vitest";
import { argumentLeaves } from "./argument-leaves";

describe("argumentLeaves", () => {
  it("flattens the arguments by path and marks the tainted values with where they came from", () => {
    const source = { origin: "row-1", server: "web", tool: "search" };
    const leaves = argumentLeaves({ to: "attacker@example.com", body: { lines: ["hi", 2] }, tags: [], cc: null }, [{ path: "to", value: "attacker@example.com", foundIn: [source] }, { path: "body.lines.0", value: "hi", foundIn: [] }]);
    expect(leaves).toEqual([
      { path: "to", value: "attacker@example.com", tainted: { path: "to", value: "attacker@example.com", foundIn: [source] } },
      { path: "body.lines.0", value: "hi", tainted: { path: "body.lines.0", value: "hi", foundIn: [] } },
      { path: "body.lines.1", value: 2 },
      { path: "tags", value: [] },
      { path: "cc", value: null },
    ]);
  });

  it("a call without arguments is one empty leaf, not nothing", () => {
    expect(argumentLeaves({}, [])).toEqual([{ path: "(the arguments)", value: {} }]);
  });
});
