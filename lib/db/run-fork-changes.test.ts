import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type ScriptedRequest, scriptedModel } from "@/testing/ai/scripted-model.fixture";
import { createTemporaryDatabase, type TemporaryDatabase } from "@/testing/db/temporary-database.fixture";
import { openSqlDatabase } from "@/lib/db/sql/open-database";
import type { SqlDatabase } from "@/lib/db/sql/sql-database";
import { chainDocument, writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { createLocalEnvironment } from "@/lib/runs/local-environment";
import type { NodeTypes } from "@/lib/graph";
import { CustomToolRegistry } from "@/lib/tools/custom-tool-registry";
import { defineTool } from "@/lib/tools/define-tool";
import type { WorkerRuntime } from "@/lib/runs/worker-runtime";
import { startFixtureWorker } from "@/testing/runs/worker.fixture";
import { runCommandInProcess } from "@/testing/scripts/command-in-process.fixture";
import { workflowCommand } from "@/scripts/workflow-command";
import { forkRun, readForkLinks } from "./run-fork";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let database: TemporaryDatabase;
let runtime: WorkerRuntime;
let db: SqlDatabase;
let nodeTypes: NodeTypes;

/** TEST DOUBLE: the outside world's counters: every model request (with the settings the agent was built with) and every tool execution. */
const modelRequests: Array<ScriptedRequest & { nodeId: string; systemPrompt: unknown; model: unknown }> = [];
const toolCalls: Array<{ id: number }> = [];
const reset = () => ((modelRequests.length = 0), (toolCalls.length = 0));

/** An agent type with the two settings a fork may change, as the shipped agents name them. */
const tunedConfig = `configSchema:
  type: object
  properties:
    systemPrompt: { type: string, title: System prompt, default: You are a clerk. }
    model: { type: string, title: Model, default: model-a }
    maxTurns: { type: integer, title: Max turns, default: 8 }
`;

beforeAll(async () => {
  nodes = await writeToolLayerNodes();
  const tuned = path.join(nodes.nodesDir, "tuned-agent");
  await cp(path.join(nodes.nodesDir, "plain-agent"), tuned, { recursive: true });
  await writeFile(path.join(tuned, "interface.yaml"), (await readFile(path.join(tuned, "interface.yaml"), "utf8")).replaceAll("plain-agent", "tuned-agent"));
  await writeFile(path.join(tuned, "config.yaml"), tunedConfig);
  nodeTypes = (await createLocalEnvironment({ nodesDir: nodes.nodesDir })).nodeTypes;
  database = await createTemporaryDatabase();
  db = openSqlDatabase(database.url);
  runtime = startFixtureWorker({
    databaseUrl: database.url,
    nodesDir: nodes.nodesDir,
    leaseMs: 60_000,
    overrides: () => ({
      // TEST DOUBLE: the clerk looks orders 1 to 5 up one by one, then says what it was told last; the writer answers at once. Each request is counted with the prompt and model it was built with.
      models: (request) =>
        scriptedModel(Array.from({ length: 8 }, () => (asked: ScriptedRequest) => {
          modelRequests.push({ ...asked, nodeId: request.nodeId, systemPrompt: request.config.systemPrompt, model: request.config.model });
          if (request.nodeId === "writer") return { text: `written under "${request.config.systemPrompt}"` };
          const last = asked.results.at(-1)?.output;
          const id = last ? (JSON.parse(last) as { id: number }).id : 0;
          return id < 5 ? { toolCalls: [{ name: "lookup", arguments: { id: id + 1 } }] } : { text: `last: ${last}` };
        })),
      // TEST DOUBLE: a counting tool.
      customTools: new CustomToolRegistry([
        defineTool({ name: "lookup", description: "Look an order up.", parameters: z.object({ id: z.number() }), execute: ({ id }) => (toolCalls.push({ id }), { id, total: id * 10 }) }),
      ]),
    }),
  });
  // The recorded run: clerk (5 lookups, 6 turns) → writer (1 turn), started from a saved workflow.
  await database.client.workflow.create({ data: { id: "wf", name: "orders", document: JSON.stringify(documentWith({})) } });
  await database.client.run.create({ data: { id: "parent", workflowId: "wf", document: JSON.stringify(documentWith({})), input: JSON.stringify({ question: "sum the orders" }), status: "queued" } });
  await finished("parent");
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
  await db?.close();
  await database?.dispose();
  await nodes?.remove();
});

function documentWith(prompts: { clerk?: string; writer?: string }) {
  return chainDocument([
    { id: "clerk", type: "tuned-agent", tools: [{ type: "custom", name: "lookup" }], config: prompts.clerk ? { systemPrompt: prompts.clerk } : {} },
    { id: "writer", type: "tuned-agent", tools: [], config: prompts.writer ? { systemPrompt: prompts.writer } : {} },
  ]);
}

const statusOf = async (id: string) => (await database.client.run.findUniqueOrThrow({ where: { id } })).status;
async function finished(id: string): Promise<void> {
  await vi.waitFor(async () => expect(await statusOf(id)).toBe("completed"), { timeout: 20_000, interval: 50 });
}
const outputOf = async (id: string) => JSON.parse((await database.client.run.findUniqueOrThrow({ where: { id } })).outputs).result;

describe("fork with a different prompt, model or document", () => {
  it("the parent ran as recorded: 7 model requests, 5 tool calls", async () => {
    expect(await outputOf("parent")).toBe('written under "You are a clerk."');
    // Counted from here on: the parent's own requests are not the forks'.
    expect(modelRequests).toHaveLength(7);
    expect(toolCalls.map((call) => call.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it("--prompt at a model turn: nothing is called before it, the turn is asked again of the new prompt, and the agent keeps it from there on", async () => {
    reset();
    const forked = await forkRun(db, { runId: "parent", at: "clerk#1/t3", prompt: "You are a careful clerk." }, { nodeTypes });
    if (!forked.ok) throw new Error(forked.error);
    await finished(forked.runId);
    // 0 model requests and 0 tool calls before the fork point: the first request counted is turn 3 itself, holding the 2nd lookup's result.
    expect(modelRequests[0]).toMatchObject({ nodeId: "clerk", systemPrompt: "You are a careful clerk.", results: [expect.objectContaining({ output: '{"id":2,"total":20}' })] });
    expect(modelRequests.filter((request) => request.nodeId === "clerk").map((request) => request.systemPrompt)).toEqual(Array(4).fill("You are a careful clerk."));
    expect(toolCalls.map((call) => call.id)).toEqual([3, 4, 5]);
    // Only that agent's prompt changed: the writer keeps its own.
    expect(modelRequests.filter((request) => request.nodeId === "writer").map((request) => request.systemPrompt)).toEqual(["You are a clerk."]);
    const run = await database.client.run.findUniqueOrThrow({ where: { id: forked.runId } });
    expect(JSON.parse(run.document).nodes.find((node: { id: string }) => node.id === "clerk").config.systemPrompt).toBe("You are a careful clerk.");
    expect(forked.change).toEqual({ kind: "prompt", nodeId: "clerk", prompt: "You are a careful clerk." });
    expect((await readForkLinks(db, forked.runId)).parent).toEqual({ runId: "parent", at: "clerk#1/t3", change: forked.change });
  }, 60_000);

  it("--model at a tool call: the call keeps its recorded result, and every turn after it goes to the new model", async () => {
    reset();
    const forked = await forkRun(db, { runId: "parent", at: "clerk#1/t3/c0", model: "model-b" }, { nodeTypes });
    if (!forked.ok) throw new Error(forked.error);
    await finished(forked.runId);
    expect(toolCalls.map((call) => call.id)).toEqual([4, 5]);
    expect(modelRequests.filter((request) => request.nodeId === "clerk").map((request) => request.model)).toEqual(["model-b", "model-b", "model-b"]);
    expect(modelRequests[0].results.map((result) => result.output)).toEqual(['{"id":3,"total":30}']);
    expect(forked.change).toEqual({ kind: "model", nodeId: "clerk", from: "model-a", model: "model-b" });
  }, 60_000);

  it("the workflow's current version: nodes before the fork point replay as recorded when unchanged, the rest runs against the new document", async () => {
    await database.client.workflow.update({ where: { id: "wf" }, data: { document: JSON.stringify(documentWith({ writer: "Write a haiku." })) } });
    reset();
    const forked = await forkRun(db, { runId: "parent", at: "writer#1/t1", document: { source: "workflow" } }, { nodeTypes });
    if (!forked.ok) throw new Error(forked.error);
    await finished(forked.runId);
    // The clerk is replayed whole (0 requests, 0 calls); the writer's one turn is asked again under the new document.
    expect(toolCalls).toEqual([]);
    expect(modelRequests.map((request) => [request.nodeId, request.systemPrompt])).toEqual([["writer", "Write a haiku."]]);
    expect(await outputOf(forked.runId)).toBe('written under "Write a haiku."');
    expect(forked.change).toEqual({ kind: "document", source: "workflow", changedNodes: ["writer"] });
  }, 60_000);

  it("a document that changed a node before the fork point is refused, naming the node; at that node's first turn it is asked again", async () => {
    const changed = JSON.stringify(documentWith({ clerk: "You are a new clerk." }));
    const before = await database.client.run.count();
    const refused = await forkRun(db, { runId: "parent", at: "clerk#1/t3", document: { source: "file", text: changed } }, { nodeTypes });
    expect(refused).toMatchObject({ ok: false, field: "document", error: expect.stringMatching(/^The new document changed node clerk \(changed; 4 steps recorded: clerk#1\/t1, clerk#1\/t1\/c0, clerk#1\/t2, …\) before the fork point at clerk#1\/t3: /) });
    expect(await forkRun(db, { runId: "parent", at: "writer#1/t1", document: { source: "file", text: changed } }, { nodeTypes })).toMatchObject({ ok: false, error: expect.stringContaining("node clerk") });
    expect(await database.client.run.count()).toBe(before);

    reset();
    const forked = await forkRun(db, { runId: "parent", at: "clerk#1/t1", document: { source: "file", text: changed } }, { nodeTypes });
    if (!forked.ok) throw new Error(forked.error);
    await finished(forked.runId);
    expect(toolCalls.map((call) => call.id)).toEqual([1, 2, 3, 4, 5]);
    expect(modelRequests.filter((request) => request.nodeId === "clerk").map((request) => request.systemPrompt)).toEqual(Array(6).fill("You are a new clerk."));
    expect(forked.change).toMatchObject({ kind: "document", source: "file", changedNodes: ["clerk"] });
  }, 60_000);

  it("refuses bad input with a clear message and creates nothing", async () => {
    const before = await database.client.run.count();
    const fork = (request: Omit<Parameters<typeof forkRun>[1], "runId">) => forkRun(db, { runId: "parent", ...request }, { nodeTypes });
    expect(await fork({ at: "clerk#1/t2", prompt: "   " })).toMatchObject({ ok: false, field: "prompt", error: expect.stringContaining("The system prompt is empty") });
    expect(await fork({ at: "clerk#1/t2", model: "gpt 4o!" })).toMatchObject({ ok: false, field: "model", error: expect.stringContaining('"gpt 4o!" is not a model id') });
    expect(await fork({ at: "clerk#1/t2", model: "" })).toMatchObject({ ok: false, field: "model", error: expect.stringContaining("is not a model id") });
    expect(await fork({ at: "clerk#1/t2", model: "model-a" })).toMatchObject({ ok: false, field: "model", error: "Node clerk already has that model: the fork would change nothing." });
    expect(await fork({ at: "clerk#1/t9", model: "model-b" })).toMatchObject({ ok: false, field: "at", error: expect.stringContaining('no step "clerk#1/t9"') });
    expect(await fork({ at: "clerk#1/t2", result: '{"text": "x"}', prompt: "Other." })).toMatchObject({ ok: false, field: "change", error: expect.stringContaining("Choose one change per fork: result and prompt") });
    expect(await fork({ at: "clerk#1/t2", model: "model-b", document: { source: "workflow" } })).toMatchObject({ ok: false, field: "change" });
    expect(await fork({ at: "clerk#1/t2", document: { source: "file", text: "{ nope" } })).toMatchObject({ ok: false, field: "document", error: expect.stringContaining("The document is not JSON") });
    // Not a workflow: each problem listed.
    const invalid = await fork({ at: "clerk#1/t2", document: { source: "file", text: JSON.stringify({ version: 2, name: "x", nodes: [{ id: "a", type: "no-such-type" }], edges: [] }) } });
    expect(invalid).toMatchObject({ ok: false, field: "document", error: expect.stringMatching(/^The document is not a valid workflow: .*version.*; .*position/) });
    const unknownType = JSON.parse(JSON.stringify(documentWith({})));
    unknownType.nodes[1].type = "no-such-agent";
    expect(await fork({ at: "clerk#1/t2", document: { source: "file", text: JSON.stringify(unknownType) } })).toMatchObject({ ok: false, field: "document", error: expect.stringContaining("no-such-agent") });
    // The parent's input must fit the new Start.
    const otherStart = JSON.parse(JSON.stringify(documentWith({})));
    otherStart.nodes[0].config.inputs = [{ name: "question", type: "string", required: true }, { name: "city", type: "string", required: true }];
    expect(await fork({ at: "clerk#1/t2", document: { source: "file", text: JSON.stringify(otherStart) } })).toMatchObject({ ok: false, field: "document", error: expect.stringContaining("the run's input does not fit the new Start") });
    // A run outside a saved workflow has no current version.
    await database.client.run.create({ data: { id: "loose", document: JSON.stringify(documentWith({})), input: "{}", status: "completed" } });
    expect(await forkRun(db, { runId: "loose", at: "clerk#1/t1", document: { source: "workflow" } }, { nodeTypes })).toMatchObject({ ok: false, field: "document", error: expect.stringContaining("not started from a saved workflow") });
    expect(await database.client.run.count()).toBe(before + 1);
  });

  it("npm run workflow -- fork --model / --document: queued with --json; a bad document is refused with its problems and exit 2", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "fork-cli-"));
    // The command called in this process (scripts/workflow-run.test.ts starts it as a process).
    const cli = (...args: string[]) => runCommandInProcess(workflowCommand, args, { DATABASE_URL: database.url, SWITCHBOARD_NODES_DIR: nodes.nodesDir });
    try {
      reset();
      const forked = await cli("fork", "parent", "--at", "clerk#1/t5/c0", "--model", "model-c", "--json");
      expect(forked.stderr).toBe("");
      const answer = JSON.parse(forked.stdout) as { runId: string; change: unknown; status: string };
      expect(answer).toMatchObject({ forkedFrom: "parent", at: "clerk#1/t5/c0", change: { kind: "model", nodeId: "clerk", from: "model-a", model: "model-c" }, status: "queued" });
      await finished(answer.runId);
      expect(toolCalls).toEqual([]);
      expect(modelRequests.map((request) => [request.nodeId, request.model])).toEqual([["clerk", "model-c"], ["writer", "model-a"]]);
      await writeFile(path.join(dir, "bad.json"), JSON.stringify({ version: 1, name: "x", nodes: [], edges: "no" }));
      const bad = await cli("fork", "parent", "--at", "clerk#1/t2", "--document", path.join(dir, "bad.json"));
      expect(bad).toMatchObject({ code: 2, stdout: "" });
      expect(bad.stderr.trim()).toMatch(/^fork: The document is not a valid workflow: edges/);
      const both = await cli("fork", "parent", "--at", "clerk#1/t2", "--prompt", "a", "--model", "b");
      expect(both.stderr.trim()).toBe("fork: Choose one change per fork: prompt and model were both given (a tool result or answer, a prompt, a model, or a document).");
      const missing = await cli("fork", "parent", "--at", "clerk#1/t2", "--document", path.join(dir, "absent.json"));
      expect(missing.stderr.trim()).toMatch(/^fork: cannot read .*absent\.json/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
