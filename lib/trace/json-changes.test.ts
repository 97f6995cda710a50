import { describe, expect, it } from "vitest";
import { formatPath, jsonChanges, jsonEqual, textChanges } from "./json-changes";

describe("jsonChanges", () => {
  it("names each changed, added and removed value by its path", () => {
    expect(jsonChanges({ value: 26.2, from: "mile", extra: 1 }, { value: 5, from: "mile", to: "km" })).toEqual([
      { kind: "changed", path: "value", before: 26.2, after: 5 },
      { kind: "removed", path: "extra", before: 1 },
      { kind: "added", path: "to", after: "km" },
    ]);
  });

  it("walks nested objects and arrays", () => {
    expect(jsonChanges({ items: [{ name: "a" }, { name: "b" }] }, { items: [{ name: "a" }, { name: "c" }, { name: "d" }] })).toEqual([
      { kind: "changed", path: "items[1].name", before: "b", after: "c" },
      { kind: "added", path: "items[2]", after: { name: "d" } },
    ]);
  });

  it("compares values of any type, the top level included", () => {
    expect(jsonChanges("42 km", "43 km")).toEqual([{ kind: "changed", path: "", before: "42 km", after: "43 km", text: [{ kind: "removed", text: "42" }, { kind: "added", text: "43" }, { kind: "same", text: " km" }] }]);
    expect(jsonChanges({ a: 1 }, "text")).toEqual([{ kind: "changed", path: "", before: { a: 1 }, after: "text" }]);
    expect(jsonChanges(null, { a: 1 })).toEqual([{ kind: "changed", path: "", before: null, after: { a: 1 } }]);
    expect(jsonChanges(undefined, 3)).toEqual([{ kind: "added", path: "", after: 3 }]);
    expect(jsonChanges(3, undefined)).toEqual([{ kind: "removed", path: "", before: 3 }]);
  });

  it("finds nothing in equal values", () => {
    expect(jsonChanges({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    expect(jsonChanges(undefined, undefined)).toEqual([]);
  });

  it("quotes keys that are not identifiers", () => {
    expect(formatPath(["a b", 0, "c"])).toBe('["a b"][0].c');
    expect(formatPath([])).toBe("");
  });
});

describe("jsonEqual", () => {
  const pairs: Array<[unknown, unknown]> = [
    [{ a: [1, { b: null }], c: "x" }, { c: "x", a: [1, { b: null }] }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [[1, 2], [2, 1]],
    [[1, 2], [1, 2, 3]],
    [[], {}],
    [{ a: "1" }, { a: 1 }],
    [null, {}],
    [0, false],
    ["text", "text"],
    [undefined, undefined],
    [undefined, null],
    [{ a: { b: [{ c: true }] } }, { a: { b: [{ c: false }] } }],
  ];

  it("is true exactly where jsonChanges finds nothing", () => {
    for (const [a, b] of pairs) expect(jsonEqual(a, b), JSON.stringify([a, b])).toBe(jsonChanges(a, b).length === 0);
  });

  it("leaves values JSON cannot hold to jsonChanges (not equal here)", () => {
    expect(jsonEqual({ a: undefined }, { a: undefined })).toBe(false);
    expect(jsonEqual(Number.NaN, Number.NaN)).toBe(false);
  });
});

describe("textChanges", () => {
  it("marks the words that changed inside a string, not the whole string", () => {
    expect(jsonChanges({ text: "It is 42.16 km." }, { text: "It is 1000 km." })).toEqual([
      {
        kind: "changed",
        path: "text",
        before: "It is 42.16 km.",
        after: "It is 1000 km.",
        text: [
          { kind: "same", text: "It is " },
          { kind: "removed", text: "42.16" },
          { kind: "added", text: "1000" },
          { kind: "same", text: " km." },
        ],
      },
    ]);
    // Not for values that are no strings.
    expect(jsonChanges({ total: 1 }, { total: 2 })[0]).not.toHaveProperty("text");
  });

  it("keeps only the ends of a long unchanged stretch", () => {
    const kept = "word ".repeat(60);
    const parts = textChanges(`${kept}old`, `${kept}new`);
    expect(parts[0]).toEqual({ kind: "same", text: expect.stringMatching(/^…word/) });
    expect(parts[0].text.length).toBeLessThan(60);
    expect(parts.slice(1)).toEqual([
      { kind: "removed", text: "old" },
      { kind: "added", text: "new" },
    ]);
  });
});
