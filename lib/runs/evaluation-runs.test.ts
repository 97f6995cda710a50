import { describe, expect, it } from "vitest";
import { typedCells } from "./evaluation-runs";

describe("typedCells", () => {
  it("reads a CSV cell as JSON for a Start field that is not text, and leaves text and unknown fields as they are", () => {
    const fields = [
      { name: "question", type: "string" as const, required: true },
      { name: "count", type: "number" as const, required: false },
      { name: "strict", type: "boolean" as const, required: false },
      { name: "options", type: "object" as const, required: false },
    ];
    expect(typedCells(fields, { question: "42", count: "3", strict: "true", options: '{"unit": "km"}', extra: "7" })).toEqual({ question: "42", count: 3, strict: true, options: { unit: "km" }, extra: "7" });
    // Not JSON: left as text, so the run service names the field.
    expect(typedCells(fields, { count: "three" })).toEqual({ count: "three" });
  });
});
