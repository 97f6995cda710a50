import { describe, expect, it } from "vitest";
import { lookupPath } from "./lookup-path";

const scope = {
  config: { maxTurns: 5, model: "small", flags: { stream: false }, nothing: null },
  calls: { search: { items: [{ id: "a" }, { id: "b" }] } },
  params: { query: "tea" },
};

describe("lookupPath", () => {
  it("reads values with their types", () => {
    expect(lookupPath(scope, ["config", "maxTurns"])).toBe(5);
    expect(lookupPath(scope, ["config", "flags", "stream"])).toBe(false);
    expect(lookupPath(scope, ["config", "nothing"])).toBeNull();
    expect(lookupPath(scope, ["config", "flags"])).toEqual({ stream: false });
  });

  it("indexes arrays with numeric segments and reads lengths", () => {
    expect(lookupPath(scope, ["calls", "search", "items", "1", "id"])).toBe("b");
    expect(lookupPath(scope, ["calls", "search", "items", "length"])).toBe(2);
    expect(lookupPath(scope, ["params", "query", "length"])).toBe(3);
  });

  it("gives undefined for anything missing, however deep", () => {
    expect(lookupPath(scope, ["config", "absent"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "absent", "deeper"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "nothing", "deeper"])).toBeUndefined();
    expect(lookupPath(scope, ["calls", "search", "items", "9", "id"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "maxTurns", "toFixed"])).toBeUndefined();
  });

  it("never reaches a prototype", () => {
    expect(lookupPath(scope, ["config", "__proto__"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "constructor"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "constructor", "prototype"])).toBeUndefined();
    expect(lookupPath(scope, ["config", "hasOwnProperty"])).toBeUndefined();
    expect(lookupPath(scope, ["calls", "search", "items", "map"])).toBeUndefined();
  });

  it("does not follow __proto__ even where JSON made it an own key", () => {
    const parsed = JSON.parse('{"params": {"__proto__": {"admin": true}}}') as unknown;
    expect(lookupPath(parsed, ["params", "__proto__", "admin"])).toBeUndefined();
    expect(lookupPath(parsed, ["params", "admin"])).toBeUndefined();
  });

  it("returns the scope itself for an empty path", () => {
    expect(lookupPath(scope, [])).toBe(scope);
  });
});
