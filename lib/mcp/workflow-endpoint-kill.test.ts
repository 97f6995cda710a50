import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type CallToolResult, CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../db/create-client";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { countingServer, type CountingServer, writeDrillNodes } from "../../testing/queue/drill.fixture";
import { balancedHost, openProcessesDatabase, startWebProcess, stopWebProcess, until, type WebProcess } from "../../testing/mcp/endpoint-web-process.fixture";

/**
 * A web process SIGKILLed under an outside host's task costs a resume, not
 * the task: the task's sub-flow is a queued Run, so the worker of another
 * web process takes it over once the dead one's lease has expired, replays
 * what the journal holds and finishes it, and the host reads the task's
 * result on the other process. Real processes (endpoint-web-process.fixture.ts),
 * on SQLite and, when a server answers, on Postgres; the sub-flow's steps
 * post to a counting fixture on 127.0.0.1 that holds the second step's
 * first request, so the kill lands while that step is in flight.
 */

const workflowId = "relay-desk";
const token = "olga-token-0123456789abcdef";
const tag = "kill-tag";

/** Task Start → s1 → s2 → s3 → Task End: three drill steps (idempotent POSTs to the fixture, so one caught in flight is safe to repeat). */
function relayDocument(baseUrl: string) {
  const at = (x: number) => ({ x, y: 0 });
  const step = (id: string, x: number) => ({ id, type: "drill-step", position: at(x), config: { baseUrl, name: id } });
  const signal = (id: string, source: string, sourceHandle: string, target: string, targetHandle: string) => ({ id, kind: "signal" as const, source, sourceHandle, target, targetHandle });
  return {
    version: 1,
    name: "Relay desk",
    nodes: [
      { id: "relay", type: "task-start", position: at(0), config: { title: "Relay a tag", description: "Posts a tag through three steps.", inputs: [{ name: "tag", type: "string", required: true }] } },
      step("s1", 200),
      step("s2", 400),
      step("s3", 600),
      { id: "relay-end", type: "task-end", position: at(800), config: {} },
    ],
    edges: [signal("r1", "relay", "tag", "s1", "tag"), signal("r2", "s1", "tag", "s2", "tag"), signal("r3", "s2", "tag", "s3", "tag"), signal("r4", "s3", "tag", "relay-end", "result")],
  };
}

let postgres: TestPostgres | { skipped: string } | undefined;
let folder = "";
let nodesDir = "";

beforeAll(async () => {
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
  // The workers read their node types from SWITCHBOARD_NODES_DIR: the app's own, and the drill's steps.
  folder = await mkdtemp(path.join(tmpdir(), "sb-endpoint-kill-"));
  await cp(path.resolve(import.meta.dirname, "..", "..", "nodes"), path.join(folder, "nodes"), { recursive: true });
  nodesDir = await writeDrillNodes(folder);
}, 60_000);

afterAll(async () => {
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.each([
  ["sqlite", 3442],
  ["postgres", 3444],
] as const)("a web process killed under a host's task (%s)", (dialect, port) => {
  let database: { close(): Promise<void> } | undefined;
  let client: PrismaClient;
  let fixture: CountingServer;
  let url = "";
  let skipped = false;
  const webs: WebProcess[] = [];
  /** Set when the second step's first request reaches the fixture (it is held there). */
  let s2Held = false;

  beforeAll(async () => {
    const opened = await openProcessesDatabase(dialect, postgres);
    if (!opened) {
      skipped = true;
      return;
    }
    ({ url, client } = opened);
    database = opened;
    // s2's first request is held for 60 s (the kill comes first); every other request answers at once.
    fixture = await countingServer({
      delayFor: (name, value) => (name === "s2" && value === tag && fixture.counts.get(`s2:${tag}`) === 1 ? 60_000 : 0),
      onCount: (name, value) => {
        if (name === "s2" && value === tag) s2Held = true;
      },
    });
    await client.workflow.create({ data: { id: workflowId, name: "Relay desk", document: JSON.stringify(relayDocument(fixture.url)) } });
  }, 60_000);

  afterAll(async () => {
    for (const web of webs) await stopWebProcess(web);
    await fixture?.close();
    await database?.close();
  });

  it("SIGKILLs A while its worker holds the task's run mid-step; B's worker resumes the run from its journal, and tasks/get and tasks/result on B give the sub-flow's result", async (context) => {
    if (skipped) return context.skip();
    // The fixture is on 127.0.0.1: the URL guard lets the steps reach it only when told to.
    const env = { SWITCHBOARD_NODES_DIR: nodesDir, SWITCHBOARD_MCP_TOKEN: token, SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: fixture.url };
    const a = await startWebProcess(port, url, env);
    webs.push(a);
    const { mcp, transport, route } = balancedHost({ name: "killed-host", first: a, workflowId, token });
    await mcp.connect(transport);
    const created = await mcp.request({ method: "tools/call", params: { name: "relay_a_tag", arguments: { tag }, task: {} } }, CreateTaskResultSchema);
    const taskId = created.task.taskId;
    const runId = await until(async () => (await client.mcpEndpointTask.findUnique({ where: { id: taskId } }))?.runId, "the task's run");
    await until(async () => s2Held || (await client.run.findUnique({ where: { id: runId } }).then((run) => (run?.endedAt ? Promise.reject(new Error(`the run ended ${run.status}: ${run.error}`)) : false))), "s2 to reach the fixture", 30_000);
    // A's own worker holds the run (B does not run yet), and s1 is in the journal before the kill.
    const running = await client.run.findUniqueOrThrow({ where: { id: runId }, include: { steps: true } });
    expect(running).toMatchObject({ status: "running", resumeCount: 0 });
    expect(running.workerId).toContain(`:${a.child.pid}:`);
    expect(running.steps.map((step) => step.key)).toContainEqual(expect.stringMatching(/s1#1\/step$/));
    expect(fixture.counts.get(`s3:${tag}`)).toBeUndefined();

    // A dies while s2 is held (its web side and its worker), before the step's own 5 s timeout could
    // end it; then B starts: another web process with its own worker.
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    const b = await startWebProcess(port + 1, url, env);
    webs.push(b);
    route.to = b;

    const result = (await mcp.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: tag }]);
    expect(await mcp.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    const listed = await mcp.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([[taskId, "completed"]]);

    // The run: resumed once by B's worker, completed, its sub-flow nested under the call's one row.
    const ended = await client.run.findUniqueOrThrow({ where: { id: runId }, include: { toolCalls: true, nodeRuns: true } });
    expect(ended).toMatchObject({ status: "completed", resumeCount: 1 });
    expect(ended.workerId).toContain(`:${b.child.pid}:`);
    expect(JSON.parse(ended.outputs)).toEqual({ result: tag });
    const rows = ended.toolCalls.filter((row) => row.nodeRunId === null);
    expect(rows).toEqual([expect.objectContaining({ caller: "mcp-host:killed-host", server: "relay", tool: "relay_a_tag", isError: false })]);
    expect(ended.nodeRuns.map((nodeRun) => [nodeRun.nodeId, nodeRun.status, nodeRun.parentToolCallId])).toEqual(
      expect.arrayContaining([
        ["s1", "completed", rows[0].id],
        ["s2", "completed", rows[0].id],
        ["s3", "completed", rows[0].id],
      ]),
    );
    expect(ended.nodeRuns.filter((nodeRun) => nodeRun.nodeId.startsWith("s"))).toHaveLength(3);

    // Every step recorded before the kill executed once; s2, caught in flight, ran once more (it is safe to repeat); s3 once.
    const counts = Object.fromEntries([...fixture.counts].filter(([key]) => key.endsWith(`:${tag}`)));
    console.log(`${dialect}: A killed mid-step; fixture counts ${JSON.stringify(counts)}`);
    expect(counts).toEqual({ [`s1:${tag}`]: 1, [`s2:${tag}`]: 2, [`s3:${tag}`]: 1 });

    await transport.terminateSession();
    await mcp.close();
  }, 120_000);
});
