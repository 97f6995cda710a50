import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type ScriptedRequest, scriptedModel } from "@/testing/ai/scripted-model.fixture";
import { createTemporaryDatabase, type TemporaryDatabase } from "@/testing/db/temporary-database.fixture";
import { openSqlDatabase } from "@/lib/db/sql/open-database";
import type { SqlDatabase } from "@/lib/db/sql/sql-database";
import { chainDocument, writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { CustomToolRegistry } from "@/lib/tools/custom-tool-registry";
import { defineTool } from "@/lib/tools/define-tool";
import { compareRuns } from "@/lib/trace/compare-runs";
import type { WorkerRuntime } from "@/lib/runs/worker-runtime";
import { startFixtureWorker } from "@/testing/runs/worker.fixture";
import { runCommandInProcess } from "@/testing/scripts/command-in-process.fixture";
import { workflowCommand } from "@/scripts/workflow-command";
import { forkRun, readForkLinks } from "./run-fork";
import { readWholeRunTrace } from "./whole-run-trace";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let database: TemporaryDatabase;
let runtime: WorkerRuntime;
let db: SqlDatabase;

/** TEST DOUBLE: the outside world's counters: every model request and every tool execution, per run. */
const modelRequests: ScriptedRequest[] = [];
const toolCalls: Array<{ id: number }> = [];

beforeAll(async () => {
  nodes = await writeToolLayerNodes();
  database = await createTemporaryDatabase();
  db = openSqlDatabase(database.url);
  runtime = startFixtureWorker({
    databaseUrl: database.url,
    nodesDir: nodes.nodesDir,
    // Long: a loaded machine must not let the lease lapse mid-run (a takeover would run a call twice and spoil the counts).
    leaseMs: 60_000,
    overrides: () => ({
      // TEST DOUBLE: a scripted model that looks order 1 up, then the order after the one it was last told of, up to 5, then says what it was told last.
      models: () =>
        scriptedModel(Array.from({ length: 6 }, () => (request: ScriptedRequest) => {
          modelRequests.push(request);
          const last = request.results.at(-1)?.output;
          const id = last ? (JSON.parse(last) as { id: number }).id : 0;
          return id < 5 ? { toolCalls: [{ name: "lookup", arguments: { id: id + 1 } }] } : { text: `last: ${last}` };
        })),
      // TEST DOUBLE: a counting tool.
      customTools: new CustomToolRegistry([
        defineTool({ name: "lookup", description: "Look an order up.", parameters: z.object({ id: z.number() }), execute: ({ id }) => (toolCalls.push({ id }), { id, total: id * 10 }) }),
      ]),
    }),
  });
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  await db?.close();
  await database?.dispose();
  await nodes?.remove();
});

const statusOf = async (id: string) => (await database.client.run.findUniqueOrThrow({ where: { id } })).status;

async function recordedRun(id: string): Promise<void> {
  const document = chainDocument([{ id: "clerk", type: "plain-agent", tools: [{ type: "custom", name: "lookup" }] }]);
  await database.client.run.create({ data: { id, document: JSON.stringify(document), input: JSON.stringify({ question: "sum the orders" }), status: "queued" } });
  await vi.waitFor(async () => expect(await statusOf(id)).toBe("completed"), { timeout: 20_000, interval: 50 });
}

describe("fork a run at a step", () => {
  it("at the 3rd of 5 tool calls, with an edited result: nothing is called before it, the rest runs live, and the diff parts at that step", async () => {
    await recordedRun("parent");
    expect(toolCalls.map((call) => call.id)).toEqual([1, 2, 3, 4, 5]);
    expect(modelRequests).toHaveLength(6);
    const parentCalls = await database.client.toolCall.findMany({ where: { runId: "parent" }, orderBy: { sequence: "asc" } });
    const third = parentCalls[2].stepKey!;
    expect(third).toBe("clerk#1/t3/c0");
    modelRequests.length = 0;
    toolCalls.length = 0;

    const forked = await forkRun(db, { runId: "parent", at: third, result: '{"id": 3, "total": 0}' });
    if (!forked.ok) throw new Error(forked.error);
    await vi.waitFor(async () => expect(await statusOf(forked.runId)).toBe("completed"), { timeout: 20_000, interval: 50 });

    // Counted at the fixtures: no model request and no tool call before the fork point; the first live request already holds the edited result.
    expect(toolCalls.map((call) => call.id)).toEqual([4, 5]);
    expect(modelRequests).toHaveLength(3);
    expect(modelRequests[0].results.map((result) => result.output)).toEqual(['{"id":3,"total":0}']);
    const run = await database.client.run.findUniqueOrThrow({ where: { id: forked.runId } });
    expect(JSON.parse(run.outputs).result).toBe('last: {"id":5,"total":50}');
    expect(run).toMatchObject({ forkedFromRunId: "parent", forkedAtStep: third, document: (await database.client.run.findUniqueOrThrow({ where: { id: "parent" } })).document });
    const rows = await database.client.toolCall.findMany({ where: { runId: forked.runId }, orderBy: { sequence: "asc" } });
    expect(rows.map((row) => row.stepKey)).toEqual(parentCalls.map((row) => row.stepKey));
    expect(new Set(rows.map((row) => row.id)).size).toBe(5);
    expect(rows.some((row) => parentCalls.some((parent) => parent.id === row.id))).toBe(false);

    const links = await readForkLinks(db, forked.runId);
    expect(links.parent).toEqual({ runId: "parent", at: third, change: { kind: "result" } });
    expect((await readForkLinks(db, "parent")).forks).toEqual([expect.objectContaining({ runId: forked.runId, at: third, status: "completed" })]);

    // The diff's first divergence is the forked call.
    const compared = await compareRuns("parent", forked.runId, (id) => readWholeRunTrace(database.client, id));
    if (!compared.ok) throw new Error(compared.problem.message);
    const { diff } = compared;
    expect(diff.firstDivergence).not.toBeNull();
    const first = diff.pairs[diff.firstDivergence!];
    expect(first.key).toBe("clerk#1/call 3");
    expect(first.state).toBe("changed");
    expect(diff.pairs.slice(0, diff.firstDivergence!).every((pair) => pair.state === "same")).toBe(true);
  }, 60_000);

  it("refuses a run still running, a step that does not exist, a result that is not JSON; nothing is created", async () => {
    const before = await database.client.run.count();
    await database.client.run.create({ data: { id: "busy", document: "{}", status: "running" } });
    expect(await forkRun(db, { runId: "busy", at: "clerk#1/t1/c0" })).toMatchObject({ ok: false, field: "runId", error: expect.stringContaining("still running") });
    expect(await forkRun(db, { runId: "nowhere", at: "clerk#1/t1/c0" })).toMatchObject({ ok: false, field: "runId", error: 'There is no run "nowhere".' });
    expect(await forkRun(db, { runId: "parent", at: "clerk#1/t9/c0" })).toMatchObject({ ok: false, field: "at", error: expect.stringContaining('no step "clerk#1/t9/c0"') });
    expect(await forkRun(db, { runId: "parent", at: "clerk#1/t1/c0", result: "{not json" })).toMatchObject({ ok: false, field: "result", error: expect.stringContaining("not JSON") });
    expect(await forkRun(db, { runId: "parent", at: "clerk#1/t2", result: '{"toolCalls": [{"arguments": {}}]}' })).toMatchObject({ ok: false, field: "result", error: expect.stringContaining("toolCalls.0.name") });
    expect(await database.client.run.count()).toBe(before + 1);
  });

  it("at a model turn with an edited answer: the edited answer is what the run goes on from", async () => {
    modelRequests.length = 0;
    toolCalls.length = 0;
    const forked = await forkRun(db, { runId: "parent", at: "clerk#1/t2", result: JSON.stringify({ text: "stopped early" }) });
    if (!forked.ok) throw new Error(forked.error);
    await vi.waitFor(async () => expect(await statusOf(forked.runId)).toBe("completed"), { timeout: 20_000, interval: 50 });
    expect(modelRequests).toHaveLength(0);
    expect(toolCalls).toHaveLength(0);
    const run = await database.client.run.findUniqueOrThrow({ where: { id: forked.runId } });
    expect(JSON.parse(run.outputs).result).toBe("stopped early");
    // The agent's output differs too, but the runs part at the turn that made it differ.
    const compared = await compareRuns("parent", forked.runId, (id) => readWholeRunTrace(database.client, id));
    if (!compared.ok) throw new Error(compared.problem.message);
    expect(compared.diff.pairs[compared.diff.firstDivergence!].key).toBe("clerk#1/turn 2");
    expect(compared.diff.pairs.find((pair) => pair.key === "clerk#1")?.state).toBe("changed");
  }, 60_000);

  it("npm run workflow -- fork: queues the fork (--json), and refuses bad input with one line and exit 2", async () => {
    // The command called in this process (scripts/workflow-run.test.ts starts it as a process).
    const cli = (...args: string[]) => runCommandInProcess(workflowCommand, args, { DATABASE_URL: database.url });
    const refused = await cli("fork", "parent", "--at", "clerk#1/t1/c0", "--result", "{oops");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr.trim()).toMatch(/^fork: The result is not JSON/);
    const forked = await cli("fork", "parent", "--at", "clerk#1/t5/c0", "--result", '{"id": 5, "total": -1}', "--json");
    expect(forked.stderr).toBe("");
    const { runId } = JSON.parse(forked.stdout) as { runId: string };
    await vi.waitFor(async () => expect(await statusOf(runId)).toBe("completed"), { timeout: 20_000, interval: 50 });
    expect(JSON.parse((await database.client.run.findUniqueOrThrow({ where: { id: runId } })).outputs).result).toBe('last: {"id":5,"total":-1}');
  }, 120_000);
});
