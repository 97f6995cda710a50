import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DatabaseRunJournal } from "./run-journal-store";
import { sqliteDatabase } from "./sql/sqlite-database";
import type { SqlDatabase } from "./sql/sql-database";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import { type TraceChanges, type TraceOverview, mergeTraceChanges, noFilters, parseCursor } from "../trace/trace-page";
import type { ToolCallRow } from "../trace/run-events";
import { getTraceOverview } from "./trace-reads";
import { getTraceChanges } from "./trace-changes";

// Closing the app's run service imports it (temporaryAppDatabase): slow on a busy machine.
vi.setConfig({ hookTimeout: 60_000 });
const database = temporaryAppDatabase();
let sql: SqlDatabase;
beforeAll(() => {
  sql = sqliteDatabase(database.url);
});
afterAll(async () => sql?.close());

const at = (ms: number) => new Date(Date.UTC(2026, 11, 1, 9, 0, 0, ms)).toISOString();

/** A run written through the journal, as the engine writes it: node runs, model turns, calls that start and end. */
async function liveRun(runId: string) {
  await sql.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{"name":"Live"}', '{}', 'running', '{}', ?, 0)`, [runId, new Date(at(0))]);
  const journal = await DatabaseRunJournal.open(sql, runId);
  await journal.runStart({ runId, workflowId: null, input: {}, startedAt: at(0) });
  let clock = 10;
  let turns = 0;
  const nodeRunId = (node: string) => `${runId}-${node}`;
  return {
    journal,
    nodeRunId,
    start: (node: string) => journal.nodeStart({ runId, nodeRunId: nodeRunId(node), nodeId: node, nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at((clock += 1)) }),
    end: (node: string) => journal.nodeEnd({ runId, nodeRunId: nodeRunId(node), status: "completed", outputs: {}, error: null, turns, endedAt: at((clock += 1)) }),
    turn: (node: string) => {
      turns += 1;
      const row = { id: `${runId}-turn-${turns}`, nodeRunId: nodeRunId(node), nodeId: node, sequence: turns, model: "m", text: "", toolCalls: [], inputTokens: 10, outputTokens: 1, costUsd: null, startedAt: at((clock += 1)), durationMs: 1, callsBefore: 0, contextKey: null, sentResults: [] };
      return journal.recordSteps([{ step: { key: `${node}#1/t${turns}`, kind: "model-turn", value: { turn: { text: "" }, row } }, rows: { toolCalls: [], taint: [] }, recordedAt: new Date(at(clock)), repeatable: true }]);
    },
    /** A call that has started (its start is journalled) but not ended: no trace row yet. */
    callStart: (node: string, id: string) => journal.recordSteps([{ step: { key: `${node}#1/t${turns}/c-${id}/start`, kind: "call-start", value: { at: at(clock) } }, rows: { toolCalls: [], taint: [] }, recordedAt: new Date(at((clock += 1))), repeatable: false }]),
    callEnd: (node: string, id: string) => {
      const key = `${node}#1/t${turns}/c-${id}`;
      const call: ToolCallRow = { id: `${runId}-${id}`, runId, nodeRunId: nodeRunId(node), tool: "lookup", server: "s", caller: node, arguments: {}, result: { id }, error: null, isError: false, tainted: false, startedAt: at((clock += 1)), durationMs: 1, inputTokens: null, outputTokens: null, stepKey: key };
      return journal.recordSteps([{ step: { key, kind: "tool-call", value: { output: id, isError: false } }, rows: { toolCalls: [call], taint: [] }, recordedAt: new Date(at(clock)), repeatable: true }]);
    },
    finish: () => journal.runEnd({ runId, status: "completed", outputs: {}, error: null, endedAt: at((clock += 1)) }),
  };
}

describe("the live poll's changes since a cursor", () => {
  it("sends each new call, turn and node-run change once, nothing missed, and adds up to a fresh first answer", async () => {
    const run = await liveRun("live");
    await run.start("agent");
    let held = (await getTraceOverview("live"))!;
    expect(parseCursor(held.cursor!)).not.toBeNull();
    const seenCalls: string[] = [];
    const seenNodeRuns: string[] = [];
    const poll = async () => {
      const changes = (await getTraceChanges("live", parseCursor(held.cursor!)!, noFilters))!;
      expect(changes.since).toBe(held.cursor);
      for (const page of changes.pages) seenCalls.push(...page.calls.map((call) => `${call.id}@${page.group}:${page.offset + page.calls.indexOf(call)}`));
      seenNodeRuns.push(...changes.nodeRuns.map((nodeRun) => `${nodeRun.nodeId}:${nodeRun.status}`));
      held = mergeTraceChanges(held, changes);
      return changes;
    };

    await run.turn("agent");
    await run.callStart("agent", "a");
    const started = await poll();
    // The call runs: it has no trace row yet, so it is not sent; the turn is.
    expect(started.pages).toEqual([]);
    expect(started.turnPlaces).toEqual({ [run.nodeRunId("agent")]: { from: 0, places: [0] } });
    expect(started.nodeRuns).toEqual([]);

    await run.callEnd("agent", "a");
    await run.callEnd("agent", "b");
    const ended = await poll();
    expect(ended.pages.map((page) => [page.group, page.offset, page.calls.map((call) => call.id)])).toEqual([[run.nodeRunId("agent"), 0, ["live-a", "live-b"]]]);
    expect(ended.aggregates.calls).toBe(2);
    expect(ended.totals).toMatchObject({ turns: 1, inputTokens: 10 });

    const quiet = await poll();
    expect(quiet).toMatchObject({ pages: [], nodeRuns: [], turnPlaces: {}, anchored: [], stepKeys: {}, taint: null });
    expect(quiet.cursor).toBe(quiet.since);

    await run.turn("agent");
    await run.callEnd("agent", "c");
    // The node run that was running ends, and another starts: each is sent once, in its new state.
    await run.end("agent");
    await run.start("writer");
    await run.turn("writer");
    await run.callEnd("writer", "d");
    const changed = await poll();
    expect(changed.nodeRuns.map((nodeRun) => `${nodeRun.nodeId}:${nodeRun.status}`)).toEqual(["agent:completed", "writer:running"]);
    expect(changed.turnPlaces).toEqual({ [run.nodeRunId("agent")]: { from: 1, places: [2] }, [run.nodeRunId("writer")]: { from: 0, places: [0] } });
    expect(changed.pages.map((page) => [page.group, page.offset])).toEqual([[run.nodeRunId("agent"), 2], [run.nodeRunId("writer"), 0]]);

    await run.end("writer");
    await run.finish();
    const last = await poll();
    expect(last.run.status).toBe("completed");
    expect(last.nodeRuns.map((nodeRun) => `${nodeRun.nodeId}:${nodeRun.status}`)).toEqual(["writer:completed"]);
    expect((await poll()).nodeRuns).toEqual([]);

    // Nothing repeated…
    expect(new Set(seenCalls).size).toBe(seenCalls.length);
    expect(seenNodeRuns).toEqual(["agent:completed", "writer:running", "writer:completed"]);
    // …and nothing missed: the merged answers are the first answer read now.
    expect(seenCalls).toEqual(["live-a@live-agent:0", "live-b@live-agent:1", "live-c@live-agent:2", "live-d@live-writer:0"]);
    const fresh = (await getTraceOverview("live"))!;
    const comparable = (overview: TraceOverview) => ({
      run: overview.run,
      cursor: overview.cursor,
      nodeRuns: overview.nodeRuns,
      groups: overview.groups,
      aggregates: overview.aggregates,
      totals: overview.totals,
      turnPlaces: overview.turnPlaces,
      stepKeys: overview.stepKeys,
      timeline: { ...overview.timeline, nodeRuns: overview.timeline?.nodeRuns },
    });
    expect(comparable(held)).toEqual(comparable(fresh));
  });

  it("answers null for a run that does not exist", async () => {
    expect(await getTraceChanges("no-such-run", { rows: 0, nodeRuns: 0 })).toBeNull();
  });

  it("a cursor ahead of what the run has written sends nothing and keeps its place", async () => {
    const run = await liveRun("ahead");
    await run.start("agent");
    await run.callEnd("agent", "x");
    const changes = (await getTraceChanges("ahead", { rows: 1000, nodeRuns: 1000 })) as TraceChanges;
    expect(changes.pages).toEqual([]);
    expect(changes.cursor).toBe("1000.1000");
  });
});
