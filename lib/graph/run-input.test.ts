import { describe, expect, it } from "vitest";
import { node } from "../../testing/graph/node-types.fixture";
import { fieldOutputs, fieldsInputSchema, readFields } from "./input-fields";
import { checkFieldValues, validateRunInput } from "./run-input";

const fields = readFields([
  { name: "question", type: "string", required: true, description: "What to ask" },
  { name: "limit", type: "number" },
  { name: "tags", type: "array" },
  { name: "options", type: "object" },
]);

describe("run input", () => {
  it("accepts values that match the Start's fields", () => {
    const workflow = { nodes: [node("start", "start", { inputs: [{ name: "question", required: true }] })] };
    expect(validateRunInput(workflow, { question: "Why?" })).toEqual({ ok: true, values: { question: "Why?" } });
    expect(checkFieldValues(fields, { question: "q", limit: 3, tags: [], options: {} }).ok).toBe(true);
  });

  it("names a missing, mistyped or unknown field", () => {
    const checked = checkFieldValues(fields, { limit: "3", tags: {}, options: [], colour: "red" }, "start");
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems.map((problem) => [problem.code, problem.field])).toEqual([
      ["input-missing", "input.question"],
      ["input-type", "input.limit"],
      ["input-type", "input.tags"],
      ["input-type", "input.options"],
      ["input-unknown", "input.colour"],
    ]);
    expect(checked.problems[0]).toMatchObject({ nodeId: "start", message: 'The input needs "question" (string): What to ask.' });
    expect(checked.problems[1].message).toBe('The input "limit" must be a number, not string "3".');
  });

  it("wants an object, and no input at all when there is no Start", () => {
    expect(checkFieldValues(fields, [1])).toMatchObject({ ok: false, problems: [{ code: "input-not-object" }] });
    expect(validateRunInput({ nodes: [] }, {})).toEqual({ ok: true, values: {} });
    expect(validateRunInput({ nodes: [] }, { x: 1 }).ok).toBe(false);
  });

  it("puts out the given fields and started, and describes the input as JSON Schema", () => {
    expect(fieldOutputs(fields, { question: "q" })).toEqual({ question: "q", started: null });
    expect(fieldsInputSchema(fields.slice(0, 2))).toEqual({
      type: "object",
      properties: { question: { type: "string", description: "What to ask" }, limit: { type: "number" } },
      required: ["question"],
      additionalProperties: false,
    });
  });
});
