import { describe, expect, it } from "vitest";
import { estimateTokens, modelToolNames } from "./tool-budget";

describe("modelToolNames", () => {
  it("makes names every vendor accepts, unique, at most 64 characters", () => {
    const names = modelToolNames(["docs.search", "docs_search", "1st tool", "", "a".repeat(80), "a".repeat(80)]);
    expect(names.slice(0, 4)).toEqual(["docs_search", "docs_search_2", "st_tool", "tool"]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
  });
});

describe("estimateTokens", () => {
  it("counts about four characters a token over the definitions' JSON", () => {
    const definitions = [{ name: "find_place", description: "Finds places by name.", parameters: { type: "object" } }];
    expect(estimateTokens(definitions)).toBe(Math.ceil(JSON.stringify(definitions).length / 4));
    expect(estimateTokens([])).toBe(1);
  });
});
