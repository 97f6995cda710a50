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
    expect(totals.get("r1")).toEqual({ turns: 3, toolCalls: 3, inputTokens: 280, outputTokens: 22 });
    const { durationMs: _durationMs, costUsd: _costUsd, ...fromTrace } = runTotals((await readWholeRunTrace(database.client, "r2"))!);
    expect(totals.get("r2")).toEqual(fromTrace);
    expect(totals.get("none")).toEqual({ turns: 0, toolCalls: 0, inputTokens: null, outputTokens: null });
    expect(await readRunTotals(database.client, [])).toEqual(new Map());
  });
});
