import { describe, expect, it } from "vitest";
import type { DatasetRow } from "./dataset-rows";
import { type EndedRowRun, type EvaluationPorts, runEvaluationLoop } from "./evaluation-loop";
import type { RowScore } from "./row-score";

/**
 * A stand-in store and run service in memory (a test double): each started
 * run ends `ticks` to `ticks` + 2 polls later, answering the row's input doubled.
 */
class InMemoryEvaluation implements EvaluationPorts {
  readonly runsOf = new Map<number, string>();
  readonly results = new Map<number, RowScore>();
  readonly refusals = new Map<number, string>();
  starts = 0;
  mostInFlight = 0;
  largestPage = 0;
  private readonly running = new Map<string, { row: DatasetRow; polls: number }>();

  constructor(
    readonly rows: DatasetRow[],
    private readonly ticks = 2,
  ) {}

  async pending(after: number, limit: number) {
    const page = this.rows.filter((row) => row.position > after && !this.results.has(row.position) && !this.refusals.has(row.position)).slice(0, limit);
    this.largestPage = Math.max(this.largestPage, page.length);
    return page.map((row) => ({ row, runId: this.runsOf.get(row.position) ?? null }));
  }

  async start(row: DatasetRow) {
    if (typeof row.input.n !== "number") return { ok: false as const, error: "input.n: The input \"n\" must be a number" };
    const held = this.runsOf.get(row.position);
    if (held) return { ok: true as const, runId: held };
    this.starts += 1;
    const runId = `run-${row.position}`;
    this.runsOf.set(row.position, runId);
    this.running.set(runId, { row, polls: 0 });
    this.mostInFlight = Math.max(this.mostInFlight, [...this.running.keys()].filter((id) => !this.results.has(Number(id.slice(4)))).length);
    return { ok: true as const, runId };
  }

  async refused(row: DatasetRow, error: string) {
    this.refusals.set(row.position, error);
  }

  async ended(runIds: readonly string[]): Promise<EndedRowRun[]> {
    const ended: EndedRowRun[] = [];
    for (const runId of runIds) {
      const run = this.running.get(runId)!;
      run.polls += 1;
      if (run.polls < this.ticks + (run.row.position % 3)) continue;
      ended.push({ runId, status: "completed", outputs: { result: (run.row.input.n as number) * 2 }, error: null, durationMs: 5, inputTokens: 1, outputTokens: 1, costUsd: null });
    }
    return ended;
  }

  async scored(row: DatasetRow, _run: EndedRowRun, score: RowScore) {
    this.results.set(row.position, score);
    this.running.delete(this.runsOf.get(row.position)!);
  }
}

function dataset(count: number): DatasetRow[] {
  return Array.from({ length: count }, (_, position) => ({ position, line: position + 1, input: { n: position }, expected: { result: position % 10 === 0 ? -1 : position * 2 } }));
}

describe("runEvaluationLoop", () => {
  it("scores every row, never more than the window in flight, reading the rows page by page", async () => {
    const store = new InMemoryEvaluation(dataset(1000));
    const result = await runEvaluationLoop(store, { scorers: [], context: {}, maxInFlight: 8, pageSize: 50, pollMs: 0 });
    expect(result).toEqual({ done: 1000, stopped: false });
    expect(store.starts).toBe(1000);
    expect(store.mostInFlight).toBeLessThanOrEqual(8);
    expect(store.largestPage).toBeLessThanOrEqual(50);
    // Rows 0, 10, 20 … expect -1: a hundred fail, the others pass.
    expect([...store.results.values()].filter((score) => score.pass)).toHaveLength(900);
    expect(store.results.get(10)).toMatchObject({ pass: false, score: 0, scores: [{ scorer: "exact", pass: false, reason: "result: expected -1, got 20" }] });
  });

  it("resumed after a kill, follows the rows already started and starts no row twice", async () => {
    const store = new InMemoryEvaluation(dataset(40));
    const stop = new AbortController();
    const first = await runEvaluationLoop(store, {
      scorers: [],
      context: {},
      maxInFlight: 6,
      pageSize: 7,
      pollMs: 0,
      signal: stop.signal,
      onRow: ({ done }) => {
        if (done === 12) stop.abort();
      },
    });
    expect(first.stopped).toBe(true);
    const startedBefore = store.starts;
    expect(startedBefore).toBeGreaterThan(12);
    const second = await runEvaluationLoop(store, { scorers: [], context: {}, maxInFlight: 6, pageSize: 7, pollMs: 0 });
    expect(first.done + second.done).toBe(40);
    expect(store.results.size).toBe(40);
    // Every row's run was started once, across both passes.
    expect(store.starts).toBe(40);
  });

  it("scores a row the run service refuses as a failure, naming the field, and goes on", async () => {
    const rows = dataset(3);
    rows[1] = { ...rows[1], input: { n: "one" } };
    const store = new InMemoryEvaluation(rows);
    const result = await runEvaluationLoop(store, { scorers: [{ kind: "number", tolerance: 0.5, path: "result" }], context: {}, maxInFlight: 2, pollMs: 0 });
    expect(result.done).toBe(3);
    expect(store.refusals.get(1)).toBe('input.n: The input "n" must be a number');
    expect(store.results.get(2)).toMatchObject({ pass: true, score: 1 });
  });
});
