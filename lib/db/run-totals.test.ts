import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTotals } from "../trace/run-totals";
import { PrismaRunSink } from "./run-sink";
import { readRunTotals } from "./run-totals";
import { createTemporaryDatabase, type TemporaryDatabase } from "./temporary-database";
import { readWholeRunTrace } from "./whole-run-trace";

let database: TemporaryDatabase;
beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => database?.dispose());

const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, 0, ms)).toISOString();

/** One run of an agent with three calls: two from one turn (the same usage), one from the next. */
async function recordRun(runId: string): Promise<void> {
  const sink = new PrismaRunSink(database.client, { document: { name: "Totals" } });
  await sink.runStart({ runId, workflowId: null, input: {}, startedAt: at(0) });
  await sink.nodeStart({ runId, nodeRunId: `${runId}-agent`, nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at(1) });
  const call = (id: string, ms: number, inputTokens: number | null, outputTokens: number | null) =>
    sink.toolCall({ id: `${runId}-${id}`, runId, nodeRunId: `${runId}-agent`, tool: "t", server: "s", caller: "agent", arguments: {}, result: null, error: null, isError: false, tainted: false, startedAt: at(ms), durationMs: 1, inputTokens, outputTokens });
  await call("a", 2, 100, 10);
  await call("b", 3, 100, 10);
  await call("c", 4, 180, 12);
  await sink.nodeEnd({ runId, nodeRunId: `${runId}-agent`, status: "completed", outputs: {}, error: null, turns: 3, endedAt: at(9) });
  await sink.runEnd({ runId, status: "completed", outputs: {}, error: null, endedAt: at(10) });
}

describe("readRunTotals", () => {
  it("counts what runTotals counts from the whole trace, for many runs at once", async () => {
    await recordRun("r1");
    await recordRun("r2");
    const totals = await readRunTotals(database.client, ["r1", "r2", "none"]);
    expect(totals.get("r1")).toEqual({ turns: 3, toolCalls: 3, inputTokens: 280, outputTokens: 22, costUsd: null });
    const { durationMs: _durationMs, ...fromTrace } = runTotals((await readWholeRunTrace(database.client, "r2"))!);
    expect(totals.get("r2")).toEqual(fromTrace);
    expect(totals.get("none")).toEqual({ turns: 0, toolCalls: 0, inputTokens: null, outputTokens: null, costUsd: null });
  });

  it("a run with journalled turn rows counts turns, tokens and cost from them", async () => {
    await recordRun("r3");
    const turn = (n: number, input: number, output: number, costUsd: number) => ({
      runId: "r3",
      key: `agent#1/t${n}`,
      kind: "model-turn",
      attempt: 0,
      recordedAt: new Date(),
      value: JSON.stringify({ turn: { text: "", toolCalls: [] }, row: { id: `turn-${n}`, nodeRunId: "r3-agent", nodeId: "agent", sequence: n, model: "m", provider: "p", text: "", toolCalls: [], inputTokens: input, outputTokens: output, costUsd, startedAt: at(n), durationMs: 1, callsBefore: n - 1, contextKey: null, sentResults: [] } }),
    });
    await database.client.runStep.createMany({ data: [turn(1, 100, 10, 0.5), turn(2, 200, 20, 0.25)] });
    const totals = await readRunTotals(database.client, ["r3"]);
    expect(totals.get("r3")).toEqual({ turns: 2, toolCalls: 3, inputTokens: 300, outputTokens: 30, costUsd: 0.75 });
    const { durationMs: _durationMs, ...fromTrace } = runTotals((await readWholeRunTrace(database.client, "r3"))!);
    expect(fromTrace).toEqual(totals.get("r3"));
    expect(await readRunTotals(database.client, [])).toEqual(new Map());
  });
});
