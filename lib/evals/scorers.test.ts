import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { modelJudge, parseJudgeAnswer } from "./model-judge";
import { combineScores, parseScorer, score, scoreAll, ScorerError, withoutPaths, type Scorer } from "./scorers";

const none = {};

describe("parseScorer", () => {
  it("reads each kind", () => {
    expect(parseScorer({ kind: "exact" }, "s")).toEqual({ kind: "exact" });
    expect(parseScorer({ kind: "contains", value: "km", path: "answer" }, "s")).toEqual({ kind: "contains", value: "km", path: "answer" });
    expect(parseScorer({ kind: "regex", pattern: "^\\d+$", flags: "i" }, "s")).toEqual({ kind: "regex", pattern: "^\\d+$", flags: "i" });
    expect(parseScorer({ kind: "number", tolerance: 0.5, path: "km" }, "s")).toEqual({ kind: "number", tolerance: 0.5, path: "km" });
    expect(parseScorer({ kind: "schema", schema: { type: "string" } }, "s")).toEqual({ kind: "schema", schema: { type: "string" } });
    expect(parseScorer({ kind: "ignore", path: "id" }, "s")).toEqual({ kind: "ignore", path: "id" });
    expect(parseScorer({ kind: "judge", rubric: "polite", threshold: 0.7, modelNode: "agent" }, "s")).toEqual({ kind: "judge", rubric: "polite", threshold: 0.7, modelNode: "agent" });
  });

  it.each([
    [null, "assertions[0]", "a scorer is an object"],
    [{ kind: "fuzzy" }, "assertions[0].kind", "kind must be one of"],
    [{}, "assertions[0].kind", "kind must be one of"],
    [{ kind: "contains" }, "assertions[0].value", "value must be a non-empty string"],
    [{ kind: "regex", pattern: "(" }, "assertions[0].pattern", "not a valid regular expression"],
    [{ kind: "regex", pattern: "a", flags: "q" }, "assertions[0].pattern", "not a valid regular expression"],
    [{ kind: "number", tolerance: -1 }, "assertions[0].tolerance", "tolerance must be a number ≥ 0"],
    [{ kind: "schema", schema: { type: "nope" } }, "assertions[0].schema", "not a valid JSON Schema"],
    [{ kind: "ignore" }, "assertions[0].path", "needs the path"],
    [{ kind: "judge", rubric: "x", threshold: 2 }, "assertions[0].threshold", "threshold must be a number from 0 to 1"],
    [{ kind: "exact", pattern: "x" }, "assertions[0].pattern", "has no field 'pattern'"],
    [{ kind: "exact", path: 3 }, "assertions[0].path", "path must be a string"],
  ])("refuses %j naming %s", (value, place, message) => {
    let thrown: unknown;
    try {
      parseScorer(value, "assertions[0]");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScorerError);
    expect((thrown as ScorerError).place).toBe(place);
    expect((thrown as ScorerError).code).toBe("invalid-scorer");
    expect((thrown as ScorerError).message).toContain(message);
    expect((thrown as ScorerError).message.startsWith(`${place}: `)).toBe(true);
  });
});

describe("score", () => {
  it("exact: equal deeply, and names the first difference", async () => {
    expect(await score({ kind: "exact" }, { a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, none)).toMatchObject({ score: 1, pass: true });
    const failed = await score({ kind: "exact" }, { a: [1, { b: 3 }] }, { a: [1, { b: 2 }] }, none);
    expect(failed).toMatchObject({ score: 0, pass: false });
    expect(failed.reason).toBe("a[1].b: expected 2, got 3");
    expect((await score({ kind: "exact", path: "a.0" }, { a: [1, 9] }, { a: [1, 2] }, none)).pass).toBe(true);
    expect((await score({ kind: "exact", path: "x" }, {}, { x: 1 }, none)).reason).toBe("x: expected 1, missing");
  });

  it("contains: text, or an item of a list", async () => {
    expect((await score({ kind: "contains", value: "42 km" }, "It is 42 km.", undefined, none)).pass).toBe(true);
    expect((await score({ kind: "contains", value: "miles", path: "answer" }, { answer: "It is 42 km." }, undefined, none))).toMatchObject({ pass: false, reason: 'answer "It is 42 km." does not contain "miles"' });
    expect((await score({ kind: "contains", value: "b" }, ["a", "b"], undefined, none)).pass).toBe(true);
    expect((await score({ kind: "contains", value: "x", path: "gone" }, {}, undefined, none)).reason).toContain("gone is missing");
  });

  it("regex: tests the text (a non-text value as JSON)", async () => {
    expect((await score({ kind: "regex", pattern: "^\\d+ km$" }, "42 km", undefined, none)).pass).toBe(true);
    expect((await score({ kind: "regex", pattern: "^HELLO", flags: "i" }, "hello there", undefined, none)).pass).toBe(true);
    expect((await score({ kind: "regex", pattern: "^\\d+$" }, 42, undefined, none)).pass).toBe(true);
    expect((await score({ kind: "regex", pattern: "^a$" }, "b", undefined, none)).reason).toBe('the value "b" does not match /^a$/');
  });

  it("number: within a tolerance of the expected number", async () => {
    expect(await score({ kind: "number", tolerance: 0.5, path: "km" }, { km: 42.3 }, { km: 42.195 }, none)).toMatchObject({ pass: true, reason: "km: 42.3 is within 0.5 of 42.195" });
    expect((await score({ kind: "number", tolerance: 0.1 }, "43", 42, none)).pass).toBe(false);
    expect((await score({ kind: "number", tolerance: 1 }, "many", 42, none)).reason).toContain('got "many"');
  });

  it("schema: valid against a JSON Schema, with ajv's reason", async () => {
    const schema = { type: "object", required: ["km"], properties: { km: { type: "number" } } };
    expect((await score({ kind: "schema", schema }, { km: 4 }, undefined, none)).pass).toBe(true);
    const failed = await score({ kind: "schema", schema }, { km: "4" }, undefined, none);
    expect(failed.pass).toBe(false);
    expect(failed.reason).toContain("value/km must be number");
  });

  it("ignore: always passes", async () => {
    expect(await score({ kind: "ignore", path: "id" }, 1, 2, none)).toMatchObject({ score: 1, pass: true });
  });

  it("judge: the context's judge scores 0..1, passing at the threshold", async () => {
    const judge = async () => ({ score: 0.8, reason: "polite and correct" });
    expect(await score({ kind: "judge", rubric: "polite", threshold: 0.7 }, "hi", undefined, { judge })).toEqual({ score: 0.8, pass: true, reason: "judged 0.80 (needs 0.7): polite and correct" });
    expect((await score({ kind: "judge", rubric: "polite", threshold: 0.9 }, "hi", undefined, { judge })).pass).toBe(false);
    expect((await score({ kind: "judge", rubric: "polite", threshold: 0.5 }, "hi", undefined, { judge: async () => ({ score: 7, reason: "" }) })).score).toBe(1);
    expect(await score({ kind: "judge", rubric: "polite", threshold: 0.5 }, "hi", undefined, none)).toMatchObject({ pass: false, reason: expect.stringContaining("no model to judge with") });
    const broken = await score({ kind: "judge", rubric: "polite", threshold: 0.5 }, "hi", undefined, { judge: async () => Promise.reject(new Error("timeout")) });
    expect(broken).toEqual({ score: 0, pass: false, reason: "the judge failed: timeout" });
  });
});

describe("scoreAll", () => {
  it("leaves a loosened path out of exact comparisons", async () => {
    const scorers: Scorer[] = [{ kind: "exact" }, { kind: "ignore", path: "id" }, { kind: "regex", path: "answer", pattern: "km" }];
    const results = await scoreAll(scorers, { id: 2, answer: "5 km", unit: "km" }, { id: 1, answer: "42 km", unit: "km" }, none);
    expect(results.map((result) => result.pass)).toEqual([true, true, true]);
    const changed = await scoreAll(scorers, { id: 2, answer: "5 km", unit: "mi" }, { id: 1, answer: "42 km", unit: "km" }, none);
    expect(changed[0]).toMatchObject({ pass: false, reason: 'unit: expected "km", got "mi"' });
    expect(combineScores(changed)).toMatchObject({ pass: false, reason: 'unit: expected "km", got "mi"' });
  });

  it("an exact comparison at a loosened path passes, and nested paths strip relative to it", async () => {
    const results = await scoreAll(
      [{ kind: "exact", path: "a" }, { kind: "exact", path: "b" }, { kind: "ignore", path: "a" }, { kind: "ignore", path: "b.id" }],
      { a: 1, b: { id: 9, x: 1 } },
      { a: 2, b: { id: 1, x: 1 } },
      none,
    );
    expect(results.every((result) => result.pass)).toBe(true);
  });

  it("withoutPaths: * matches every key or item; a list keeps its length", () => {
    expect(withoutPaths({ items: [{ id: 1, n: "a" }, { id: 2, n: "b" }] }, ["items.*.id"])).toEqual({ items: [{ n: "a" }, { n: "b" }] });
    expect(withoutPaths({ items: [1, 2, 3] }, ["items.1"])).toEqual({ items: [1, null, 3] });
    expect(withoutPaths("text", ["a"])).toBe("text");
  });
});

describe("modelJudge", () => {
  it("asks a model once, with no tools, and reads its score", async () => {
    const model = scriptedModel([{ text: '{"score": 0.9, "reason": "answers in km"}' }]);
    const judge = modelJudge(model);
    const result = await score({ kind: "judge", rubric: "answers in km", threshold: 0.7 }, "42 km", undefined, { judge });
    expect(result).toEqual({ score: 0.9, pass: true, reason: "judged 0.90 (needs 0.7): answers in km" });
    expect(model.requests).toEqual([{ tools: [], results: [] }]);
  });

  it("reads prose and other scales", () => {
    expect(parseJudgeAnswer("Score: 0.4 — too vague")).toEqual({ score: 0.4, reason: "Score: 0.4 — too vague" });
    expect(parseJudgeAnswer("I'd give it 8/10").score).toBe(0.8);
    expect(parseJudgeAnswer("75%").score).toBe(0.75);
    expect(parseJudgeAnswer('```json\n{"score": "1", "reason": "ok"}\n```')).toEqual({ score: 1, reason: "ok" });
    expect(() => parseJudgeAnswer("looks fine")).toThrow("has no score");
  });
});
