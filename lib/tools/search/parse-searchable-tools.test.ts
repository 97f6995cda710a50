import { describe, expect, it } from "vitest";
import { parseSearchableTools } from "./parse-searchable-tools";

const valid = { server: "s", name: "n", description: "d", inputSchema: { type: "object" } };

describe("parseSearchableTools", () => {
  it("returns a valid list as it is", () => {
    expect(parseSearchableTools([valid], "tools.json")).toEqual([valid]);
  });

  it.each([
    [{ tools: [] }, "tools.json: expected an array of tools, found an object"],
    [[42], "tools.json: tool 0: expected an object, found number 42"],
    [[valid, { ...valid, name: "" }], 'tools.json: tool 1: "name" must be a non-empty string, found string ""'],
    [[{ ...valid, server: undefined }], 'tools.json: tool 0: "server" must be a non-empty string, found nothing'],
    [[{ ...valid, description: 3 }], 'tools.json: tool 0 (n): "description" must be a string, found number 3'],
    [[{ ...valid, inputSchema: [] }], 'tools.json: tool 0 (n): "inputSchema" must be a JSON Schema object, found an array'],
  ])("names the item and field that is wrong: %j", (value, message) => {
    expect(() => parseSearchableTools(value, "tools.json")).toThrow(expect.objectContaining({ code: "invalid-tools", message }));
  });
});
