import { describe, expect, it } from "vitest";
import type { EntryField } from "../graph";
import { typedCells } from "./evaluation-runs";

describe("typedCells", () => {
  it("reads a CSV cell as JSON for a Start field that is not text, and leaves text and unknown fields as they are", () => {
    const field = (name: string, type: EntryField["type"]): EntryField => ({ name, type, description: "", required: false });
    const fields = [field("question", "string"), field("count", "number"), field("strict", "boolean"), field("options", "object")];
    expect(typedCells(fields, { question: "42", count: "3", strict: "true", options: '{"unit": "km"}', extra: "7" })).toEqual({ question: "42", count: 3, strict: true, options: { unit: "km" }, extra: "7" });
    // Not JSON: left as text, so the run service names the field.
    expect(typedCells(fields, { count: "three" })).toEqual({ count: "three" });
  });
});
