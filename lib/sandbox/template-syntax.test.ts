import { describe, expect, it } from "vitest";
import { parseTemplate, TemplateSyntaxError, templatePaths } from "./template-syntax";

describe("parseTemplate", () => {
  it("keeps plain text literal", () => {
    expect(parseTemplate("hello")).toEqual({ kind: "literal", text: "hello" });
  });

  it("treats a lone path as a whole value", () => {
    const parsed = parseTemplate("{{ config.maxTurns }}");
    expect(parsed.kind).toBe("whole");
    expect(templatePaths(parsed).map((path) => path.segments)).toEqual([["config", "maxTurns"]]);
  });

  it("interpolates paths inside text", () => {
    const parsed = parseTemplate("https://api.example.com/items/{{ params.id }}?x={{ calls.a.b }}");
    expect(parsed.kind).toBe("interpolated");
    expect(templatePaths(parsed).map((path) => path.text)).toEqual(["params.id", "calls.a.b"]);
  });

  it("recognizes return expressions", () => {
    expect(parseTemplate("return response.items")).toEqual({ kind: "expression", source: "return response.items" });
  });

  it("reports where a template is malformed", () => {
    expect(() => parseTemplate("a {{ params.x")).toThrow(TemplateSyntaxError);
    expect(() => parseTemplate("{{ }}")).toThrow(/empty/);
    expect(() => parseTemplate("{{ params.x + 1 }}")).toThrow(/not a dot path/);
    try {
      parseTemplate("ab }}");
    } catch (error) {
      expect((error as TemplateSyntaxError).offset).toBe(3);
    }
  });
});
