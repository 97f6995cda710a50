import { describe, expect, it } from "vitest";
import { PrismaRunSink } from "./run-sink";
import { turnStepData } from "./run-aggregates";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import type { ToolCallRow } from "../trace/run-events";
import { getCallDetail, getCallPage, getTaintOrigins, getTraceOverview, getTurnPage, firstPageTurns } from "./trace-reads";

const database = temporaryAppDatabase();
const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, 0, ms)).toISOString();

/** A run being written: an agent whose calls the test adds one by one, as the engine's sink writes them. */
async function startRun(runId: string) {
  const sink = new PrismaRunSink(database.client, { document: { version: 1, name: "Paged", nodes: [], edges: [] } });
  await sink.runStart({ runId, workflowId: null, input: {}, startedAt: at(0) });
  await sink.nodeStart({ runId, nodeRunId: `${runId}-agent`, nodeId: "agent", nodeType: "offline-agent", parentToolCallId: null, inputs: {}, startedAt: at(1) });
  let made = 0;
  const call = (extra: Partial<ToolCallRow> = {}) => {
    made += 1;
    return sink.toolCall({
      id: `${runId}-call-${made}`, runId, nodeRunId: `${runId}-agent`, tool: made % 3 === 0 ? "convertUnits" : "listUnits", server: "converter", caller: "agent",
      arguments: { made }, result: { ok: made }, error: null, isError: made % 10 === 0, tainted: false,
      // Calls return out of start order, as parallel calls do: a row is written when its call ends.
      startedAt: at(10 + ((made * 7) % 50)), durationMs: made % 4, inputTokens: 2, outputTokens: 1, ...extra,
    });
  };
  return { sink, call, nodeRunId: `${runId}-agent` };
}

/** Reads a group page by page through the cursor; the ids in order. */
async function readAll(runId: string, group: string, limit: number, onPage?: () => Promise<void>) {
  const ids: string[] = [];
  let page = await getCallPage(runId, { group, limit });
  for (;;) {
    expect(page.offset).toBe(ids.length);
    ids.push(...page.calls.map((call) => call.id));
    if (page.next === null) return ids;
    await onPage?.();
    page = await getCallPage(runId, { group, after: page.next, limit });
  }
}

describe("the trace's pages", () => {
  it("pages a group through the cursor with no gap and no duplicate while the run is still writing rows", async () => {
    const run = await startRun("writing");
    for (let index = 0; index < 25; index++) await run.call();
    // Two more rows land between every two page reads.
    const ids = await readAll("writing", run.nodeRunId, 10, async () => {
      if (run.nodeRunId && (await database.client.toolCall.count({ where: { runId: "writing" } })) < 45) {
        await run.call();
        await run.call();
      }
    });
    const written = await database.client.toolCall.findMany({ where: { runId: "writing" }, orderBy: { sequence: "asc" }, select: { id: true } });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(written.map((row) => row.id));

    // Rows written after the end was reached come after the last one seen, as a live page asks.
    const last = written.length;
    await run.call();
    await run.call();
    const lastSequence = (await database.client.toolCall.findUniqueOrThrow({ where: { id: written[last - 1].id } })).sequence;
    const next = await getCallPage("writing", { group: run.nodeRunId, after: String(lastSequence), limit: 10 });
    expect(next).toMatchObject({ offset: last, next: null });
    expect(next.calls.map((call) => call.id)).toEqual([`writing-call-${last + 1}`, `writing-call-${last + 2}`]);
  });

  it("a page at an offset holds the same calls as the cursor gives there; pages carry no arguments or results", async () => {
    const run = await startRun("offsets");
    for (let index = 0; index < 30; index++) await run.call();
    const all = await readAll("offsets", run.nodeRunId, 7);
    const jumped = await getCallPage("offsets", { group: run.nodeRunId, offset: 20, limit: 7 });
    expect(jumped.offset).toBe(20);
    expect(jumped.calls.map((call) => call.id)).toEqual(all.slice(20, 27));
    expect(jumped.next).toBe(String(jumped.calls[6].sequence));
    expect(jumped.calls[0]).not.toHaveProperty("arguments");
    expect(jumped.calls[0]).not.toHaveProperty("result");
    const end = await getCallPage("offsets", { group: run.nodeRunId, offset: 28, limit: 7 });
    expect(end.calls).toHaveLength(2);
    expect(end.next).toBeNull();
  });

  it("filters pages and counts by tool, by errors and by node", async () => {
    const run = await startRun("filtered");
    for (let index = 0; index < 30; index++) await run.call();
    await run.sink.toolCall({
      id: "filtered-outside", runId: "filtered", nodeRunId: null, tool: "convertUnits", server: "converter", caller: "mcp-host:claude",
      arguments: {}, result: null, error: "x".repeat(1000), isError: true, tainted: false, startedAt: at(90), durationMs: 1, inputTokens: null, outputTokens: null,
    });
    const errors = await getTraceOverview("filtered", { nodeId: "", tool: "", errorsOnly: true });
    expect(errors?.matchingCalls).toBe(4);
    expect(errors?.groups).toEqual({ [run.nodeRunId]: 3, "": 1 });
    expect(errors?.pages.map((page) => [page.group, page.calls.length])).toEqual([[run.nodeRunId, 3], ["", 1]]);
    // A row's error is cut short; the call in full has it all.
    expect(errors?.pages[1].calls[0].error).toHaveLength(301);
    expect((await getCallDetail("filtered", "filtered-outside"))?.call.error).toHaveLength(1000);

    const convert = await getTraceOverview("filtered", { nodeId: "", tool: "convertUnits", errorsOnly: false });
    expect(convert?.matchingCalls).toBe(11);
    const byNode = await getTraceOverview("filtered", { nodeId: "mcp-host:claude", tool: "", errorsOnly: false });
    expect(byNode?.groups).toEqual({ "": 1 });
    const agentPage = await getCallPage("filtered", { group: run.nodeRunId, filters: { nodeId: "agent", tool: "convertUnits", errorsOnly: true }, limit: 50 });
    expect(agentPage.calls.map((call) => call.id)).toEqual(["filtered-call-30"]);
  });
});

describe("the trace's first answer", () => {
  it("counts in the database: totals, per tool, per group, the waterfall's extent; the first page is capped", async () => {
    const run = await startRun("counted");
    for (let index = 0; index < 120; index++) await run.call();
    const overview = await getTraceOverview("counted");
    expect(overview?.aggregates).toMatchObject({ calls: 120, errors: 12, tainted: 0, inputTokens: 240, outputTokens: 120, callsByGroup: { [run.nodeRunId]: 120 } });
    expect(overview?.aggregates.tools).toEqual([
      { tool: "convertUnits", calls: 40, errors: 4, durationMs: expect.any(Number), inputTokens: 80, outputTokens: 40 },
      { tool: "listUnits", calls: 80, errors: 8, durationMs: expect.any(Number), inputTokens: 160, outputTokens: 80 },
    ]);
    const rows = await database.client.toolCall.findMany({ where: { runId: "counted" } });
    expect(overview?.aggregates.tools.reduce((sum, tool) => sum + tool.durationMs, 0)).toBe(rows.reduce((sum, row) => sum + row.durationMs, 0));
    expect(overview?.aggregates.firstCallAt).toBe(new Date(Math.min(...rows.map((row) => row.startedAt.getTime()))).toISOString());
    expect(overview?.aggregates.lastCallEndAt).toBe(new Date(Math.max(...rows.map((row) => row.startedAt.getTime() + row.durationMs))).toISOString());
    expect(overview?.pages).toHaveLength(1);
    expect(overview?.pages[0]).toMatchObject({ group: run.nodeRunId, offset: 0, next: expect.any(String) });
    expect(overview?.pages[0].calls).toHaveLength(50);
    expect(await getTraceOverview("no-such-run")).toBeNull();
  });

  it("places a task's call among the filtered calls of its group, and summarizes taint with its origins paged", async () => {
    const run = await startRun("tainted");
    for (let index = 0; index < 5; index++) await run.call({ tainted: true });
    const origins = Array.from({ length: 5 }, (_, index) => `tainted-call-${index + 1}`);
    for (const callId of origins) {
      await run.sink.taintRecord({ kind: "tool-result", runId: "tainted", source: "mcp", server: "web", tool: "search", nodeId: "agent", nodeRunId: run.nodeRunId, toolCallId: callId, recordedAt: at(60) });
    }
    // 12 origins, two of which have no row yet.
    const all = [...origins, ...origins, "pending-a", "pending-b"];
    await run.sink.taintRecord({ kind: "output", runId: "tainted", nodeId: "agent", nodeRunId: run.nodeRunId, output: "answer", origins: all, recordedAt: at(70) });
    await run.sink.nodeStart({ runId: "tainted", nodeRunId: "tainted-sub", nodeId: "helper", nodeType: "offline-agent", parentToolCallId: "tainted-call-4", inputs: {}, startedAt: at(20) });

    const overview = await getTraceOverview("tainted", { nodeId: "", tool: "convertUnits", errorsOnly: false });
    expect(overview?.anchored).toEqual([{ call: expect.objectContaining({ id: "tainted-call-4" }), group: run.nodeRunId, before: 1, matches: false }]);
    expect(overview?.taint.sources).toEqual([{ server: "web", tool: "search", source: "mcp", calls: 5, first: { callId: "tainted-call-1", server: "web", tool: "search", source: "mcp", inTrace: true } }]);
    expect(overview?.taint.outputCount).toBe(1);
    const [output] = overview!.taint.outputs;
    expect(output).toMatchObject({ label: "agent.answer", originCount: 12 });
    expect(output.firstOrigins.map((origin) => origin.callId)).toEqual(origins);

    const first = await getTaintOrigins("tainted", output.id, { limit: 5 });
    const second = await getTaintOrigins("tainted", output.id, { after: Number(first!.next), limit: 5 });
    const third = await getTaintOrigins("tainted", output.id, { after: Number(second!.next), limit: 5 });
    expect([...first!.origins, ...second!.origins, ...third!.origins].map((origin) => origin.callId)).toEqual(all);
    expect(third?.next).toBeNull();
    expect(third?.origins.map((origin) => origin.inTrace)).toEqual([false, false]);
    expect(await getTaintOrigins("tainted", "no-such-entry", { limit: 5 })).toBeNull();
  });

  it("tells where a call sits in its group, for opening it from elsewhere", async () => {
    const run = await startRun("located");
    for (let index = 0; index < 8; index++) await run.call();
    expect(await getCallDetail("located", "located-call-6")).toMatchObject({ group: run.nodeRunId, position: 5, call: { arguments: { made: 6 }, result: { ok: 6 } } });
    expect(await getCallDetail("located", "no-such-call")).toBeNull();
    expect(await getCallDetail("other-run", "located-call-6")).toBeNull();
  });
});

describe("the trace's model turns", () => {
  it("places every turn in the first answer but sends only the first page of them; the rest come in numbered pages, in the tree's order", async () => {
    const run = await startRun("turns");
    for (let index = 0; index < 3; index++) await run.call();
    const turns = 120;
    // Journalled model turns as the engine records them; written out of order, as the tree's order is by place, then sequence.
    await database.client.runStep.createMany({
      data: Array.from({ length: turns }, (_, index) => turns - 1 - index).map((number) => {
        const value = {
          turn: { text: `answer ${number}` },
          row: { id: `turn-${number}`, nodeRunId: run.nodeRunId, sequence: number, model: "scripted", text: `answer ${number}`, startedAt: at(100 + number), durationMs: 1, callsBefore: Math.min(3, Math.floor(number / 40)), contextKey: null, sentResults: [] },
        };
        return { runId: "turns", key: `agent#1/t${number + 1}`, kind: "model-turn", attempt: 0, recordedAt: new Date(at(100 + number)), value: JSON.stringify(value), ...turnStepData("model-turn", value) };
      }),
    });
    const overview = await getTraceOverview("turns");
    expect(overview?.turnPlaces?.[run.nodeRunId]).toHaveLength(turns);
    expect(overview?.turnPlaces?.[run.nodeRunId].slice(38, 42)).toEqual([0, 0, 1, 1]);
    expect(overview?.turnPages).toHaveLength(1);
    expect(overview?.turnPages?.[0]).toMatchObject({ group: run.nodeRunId, offset: 0 });
    expect(overview?.turnPages?.[0].turns.map((turn) => turn.id)).toEqual(Array.from({ length: firstPageTurns }, (_, number) => `turn-${number}`));
    expect(overview?.turnPages?.[0].turns[0]).not.toHaveProperty("sentResults");

    const page = await getTurnPage("turns", { group: run.nodeRunId, offset: 100, limit: 100 });
    expect(page.offset).toBe(100);
    expect(page.turns.map((turn) => turn.id)).toEqual(Array.from({ length: 20 }, (_, index) => `turn-${100 + index}`));
    expect((await getTurnPage("turns", { group: "no-such-node-run", offset: 0, limit: 10 })).turns).toEqual([]);
  });
});
