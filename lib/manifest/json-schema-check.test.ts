import { describe, expect, it } from "vitest";
import { compileSchema } from "./json-schema-check";

describe("compileSchema", () => {
  it("keeps properties named like annotations (description, title, default)", () => {
    const compiled = compileSchema({ type: "object", properties: { description: { type: "string" }, title: { type: "string" } }, additionalProperties: false });
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.validate({ description: "x", title: "y" })).toBe(true);
    expect(compiled.validate({ description: 1 })).toBe(false);
  });
  it("shares one validator between schemas that differ only in annotations and UI keys", () => {
    const a = compileSchema({ type: "string", title: "A", "ui:field": "template" });
    const b = compileSchema({ type: "string", description: "B", step: 1 });
    expect(a).toBe(b);
  });
});
