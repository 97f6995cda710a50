import { describe, expect, it } from "vitest";
import { checkEditedArguments } from "./edited-arguments";

const schema = { type: "object", properties: { value: { type: "number" }, from: { type: "string" } }, required: ["value"], additionalProperties: false };

describe("checkEditedArguments", () => {
  it("accepts arguments that fit the schema, as they were typed", () => {
    expect(checkEditedArguments('{ "value": 10, "from": "mile" }', schema, "convertUnits")).toEqual({ ok: true, value: { value: 10, from: "mile" } });
  });

  it("refuses text that is not JSON, and arguments that do not fit, naming the field", () => {
    expect(checkEditedArguments("{ value: 10 ", schema, "convertUnits")).toMatchObject({ ok: false, error: expect.stringContaining("not JSON") });
    expect(checkEditedArguments('{ "value": "ten" }', schema, "convertUnits")).toEqual({ ok: false, error: "The edited arguments do not fit convertUnits's input schema: /value must be number" });
    expect(checkEditedArguments('{ "value": 1, "to": "x" }', schema, "convertUnits")).toMatchObject({ ok: false, error: expect.stringContaining("('to')") });
  });
});
