import { describe, expect, it } from "vitest";
import { caseFileName, caseFileText, parseTestCase, TestCaseError, type TestCase } from "./test-case";

const valid: TestCase = {
  format: "switchboard-test-case/1",
  name: "5 km in miles",
  workflow: { id: "demo", name: "Demo", documentVersion: 1, savedVersion: null, documentHash: "abc", serverNodes: ["converter"] },
  pinnedFrom: { runId: "run-1", pinnedAt: "2026-12-02T10:00:00.000Z" },
  input: { question: "convert 5 kilometre to mile" },
  outputs: { result: "3.1" },
  nodes: [
    {
      key: "agent#1",
      node: "agent",
      type: "offline-agent",
      status: "completed",
      inputs: { prompt: "convert 5 kilometre to mile" },
      outputs: { answer: "3.1" },
      error: null,
      steps: [
        { kind: "model-turn", key: "agent#1/t1", model: "offline", request: { model: null, system: "You are a helpful assistant.", instructions: "", messages: [{ role: "user", content: { prompt: "convert" } }], tools: [] }, answer: { text: "", toolCalls: [{ id: "c1", name: "convertUnits", arguments: { value: 5 } }] } },
        { kind: "tool-call", key: "agent#1/t1/c0", server: "converter", tool: "convertUnits", arguments: { value: 5 }, output: "3.1", isError: false, result: 3.1, error: null },
      ],
    },
  ],
  assertions: {
    outputs: [{ kind: "exact" }, { kind: "regex", path: "result", pattern: "^\\d" }],
    toolCalls: [{ key: "agent#1/t1/c0", tool: "converter/convertUnits", arguments: [{ kind: "exact" }] }],
    modelRequests: [{ step: "agent", scorers: [{ kind: "ignore", path: "system" }] }],
  },
};

function problem(text: string): TestCaseError {
  try {
    parseTestCase(text, "tests/cases/x.case.json");
  } catch (error) {
    if (error instanceof TestCaseError) return error;
    throw error;
  }
  throw new Error("expected the case to be refused");
}

describe("parseTestCase", () => {
  it("reads back what caseFileText writes, JSON or YAML", () => {
    expect(parseTestCase(caseFileText(valid), "a.case.json")).toEqual(valid);
    const yaml = `format: switchboard-test-case/1\nname: short\nworkflow: { id: demo }\nnodes: []\n`;
    expect(parseTestCase(yaml, "a.case.yaml")).toMatchObject({ name: "short", workflow: { id: "demo", documentVersion: 1 }, assertions: { outputs: [{ kind: "exact" }], toolCalls: [], modelRequests: [] } });
  });

  it("gives file:line and the field for a bad scorer", () => {
    const text = caseFileText({ ...valid, assertions: { ...valid.assertions, outputs: [{ kind: "exact" }, { kind: "regex", pattern: "(" } as never] } });
    const error = problem(text);
    const line = text.split("\n").findIndex((row) => row.includes('"pattern": "("')) + 1;
    expect(error.line).toBe(line);
    expect(error.message).toBe(`tests/cases/x.case.json:${line}: assertions.outputs[1].pattern: not a valid regular expression: Invalid regular expression: /(/: Unterminated group`);
  });

  it("gives file:line for a syntax error, a missing field and a wrong kind", () => {
    expect(problem('{\n  "format": "switchboard-test-case/1",\n  "name": "x",\n  "nodes": [\n}').message).toMatch(/^tests\/cases\/x\.case\.json:5: /);
    expect(problem('{\n  "format": "switchboard-test-case/1",\n  "name": "x",\n  "nodes": []\n}').message).toBe("tests/cases/x.case.json:1: workflow: must be an object (it is missing)");
    const wrongKind = caseFileText(valid).replace('"kind": "tool-call"', '"kind": "tool-kall"');
    const line = wrongKind.split("\n").findIndex((row) => row.includes("tool-kall")) + 1;
    expect(problem(wrongKind).message).toBe(`tests/cases/x.case.json:${line}: nodes[0].steps[1].kind: must be "model-turn" or "tool-call" (got "tool-kall")`);
    expect(problem(caseFileText(valid).replace('"format": "switchboard-test-case/1"', '"format": "other/2"')).message).toBe('tests/cases/x.case.json:2: format: must be "switchboard-test-case/1" (got "other/2")');
  });

  it("refuses a judge among model-request loosenings, and a step key outside its node run", () => {
    const judged = caseFileText({ ...valid, assertions: { ...valid.assertions, modelRequests: [{ step: "agent", scorers: [{ kind: "judge", rubric: "x", threshold: 0.5 }] }] } });
    expect(problem(judged).message).toContain("assertions.modelRequests[0].scorers[0].kind: a model request is matched before the model answers");
    const moved = caseFileText(valid).replace('"key": "agent#1/t1/c0"', '"key": "other#1/t1/c0"');
    expect(problem(moved).message).toContain('nodes[0].steps[1].key: a step of agent#1 has a key under it');
  });

  it("names files after the case", () => {
    expect(caseFileName("Demo: 5 km → miles!")).toBe("demo-5-km-miles.case.json");
    expect(caseFileName("***")).toBe("case.case.json");
  });
});
