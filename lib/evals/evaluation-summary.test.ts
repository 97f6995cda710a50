import { describe, expect, it } from "vitest";
import { percentile, type RowFigures, summarizeEvaluation } from "./evaluation-summary";
import { scoreRow } from "./row-score";

function row(pass: boolean, score: number, durationMs: number, costUsd: number | null = 0.001): RowFigures {
  return { pass, score, durationMs, inputTokens: 100, outputTokens: 20, costUsd };
}

describe("summarizeEvaluation", () => {
  it("gives pass rate, mean score, tokens, cost and p50/p95 run time of the scored rows", () => {
    const rows = Array.from({ length: 20 }, (_, index) => row(index % 4 !== 0, index % 4 === 0 ? 0.5 : 1, (index + 1) * 10));
    const summary = summarizeEvaluation([...rows, { pass: null, score: null, durationMs: null, inputTokens: null, outputTokens: null, costUsd: null }], 25);
    expect(summary).toMatchObject({ rows: 25, scored: 20, passed: 15, passRate: 0.75, meanScore: 0.875, inputTokens: 2000, outputTokens: 400, p50Ms: 100, p95Ms: 190 });
    expect(summary.costUsd).toBeCloseTo(0.02);
  });

  it("leaves the cost unknown when one row's is, and everything empty before the first row", () => {
    expect(summarizeEvaluation([row(true, 1, 5), row(true, 1, 6, null)], 2).costUsd).toBeNull();
    expect(summarizeEvaluation([], 200)).toEqual({ rows: 200, scored: 0, passed: 0, passRate: null, meanScore: null, inputTokens: 0, outputTokens: 0, costUsd: null, p50Ms: null, p95Ms: null });
  });

  it("percentile is nearest rank", () => {
    expect([percentile([1, 2, 3, 4], 0.5), percentile([1, 2, 3, 4], 0.95), percentile([7], 0.95)]).toEqual([2, 4, 7]);
  });
});

describe("scoreRow", () => {
  const completed = (outputs: Record<string, unknown>) => ({ status: "completed", outputs, error: null });

  it("with no scorers, the outputs must equal the expected ones", async () => {
    expect(await scoreRow([], { result: "5 km" }, completed({ result: "5 km" }), {})).toMatchObject({ pass: true, score: 1 });
    expect(await scoreRow([], { result: "5 km" }, completed({ result: "6 km" }), {})).toMatchObject({ pass: false, score: 0 });
  });

  it("a row without expected outputs is scored by the scorers that need none; with none, a completed run passes", async () => {
    const scorers = [{ kind: "exact" as const }, { kind: "contains" as const, value: "km", path: "result" }];
    expect(await scoreRow(scorers, undefined, completed({ result: "42 mi" }), {})).toMatchObject({ pass: false, scores: [{ scorer: "contains", pass: false }] });
    expect(await scoreRow([{ kind: "exact" }], undefined, completed({ result: 1 }), {})).toMatchObject({ pass: true, score: 1, scores: [] });
  });

  it("the mean of several scorers, and a failed run scores 0 with its error", async () => {
    const scorers = [{ kind: "regex" as const, pattern: "^\\d", path: "result" }, { kind: "number" as const, tolerance: 0.1, path: "km" }];
    expect(await scoreRow(scorers, { km: 5 }, completed({ result: "5 km", km: 5.5 }), {})).toMatchObject({ pass: false, score: 0.5 });
    expect(await scoreRow(scorers, { km: 5 }, { status: "failed", outputs: {}, error: "the tool is down" }, {})).toEqual({ pass: false, score: 0, scores: [], error: "the run failed: the tool is down" });
  });

  it("a judge scorer asks the context's judge (a test double here), with the row's outputs and expected outputs", async () => {
    const asked: unknown[] = [];
    const judge = async (request: { rubric: string; actual: unknown; expected: unknown }) => {
      asked.push(request);
      return { score: 0.8, reason: "close enough" };
    };
    const verdict = await scoreRow([{ kind: "judge", rubric: "Is it in miles?", threshold: 0.7 }], { result: "3.1 mi" }, completed({ result: "3.11 mile" }), { judge });
    expect(verdict).toMatchObject({ pass: true, score: 0.8, scores: [{ scorer: "judge", reason: "judged 0.80 (needs 0.7): close enough" }] });
    expect(asked).toEqual([{ rubric: "Is it in miles?", actual: { result: "3.11 mile" }, expected: { result: "3.1 mi" } }]);
  });
});
