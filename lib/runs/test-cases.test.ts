import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { demoWorkflow } from "../db/demo-workflow";
import { openSqlDatabase } from "../db/sql/open-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import type { TestCase } from "../evals/test-case";
import { runNodeTypes } from "./run-environment";
import { RunService } from "./run-service";
import { keepRunAsTest, runTestCases } from "./test-cases";
import { startWorkerRuntime } from "./worker-runtime";

// Counts calls at the real tool: every service-node method (the unit converter's convertUnits) runs through invokeMethod.
const realToolCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("../calls/invoke-method", async (importOriginal) => {
  const original = await importOriginal<typeof import("../calls/invoke-method")>();
  return {
    ...original,
    invokeMethod: (...args: Parameters<typeof original.invokeMethod>) => {
      realToolCalls.count += 1;
      return original.invokeMethod(...args);
    },
  };
});

let database: TemporaryDatabase;
let sql: SqlDatabase;
let service: RunService;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  await database.client.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  sql = openSqlDatabase(database.url);
  service = new RunService({ db: sql, nodeTypes: () => runNodeTypes(), wake: () => undefined });
}, 60_000);
afterAll(async () => {
  await sql?.close();
  await database?.dispose();
});

const timings = { leaseMs: 10_000, heartbeatMs: 500, pollMs: 20 };
const dependencies = () => ({ service, prisma: database.client, databaseUrl: database.url, log: () => undefined });

/** A run of the saved demo, taken by a worker of this process: the recorded run a case is pinned from. */
async function recordDemoRun(question: string): Promise<string> {
  const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question }, origin: { kind: "cli" } });
  if (!started.ok) throw new Error(started.error);
  const worker = startWorkerRuntime({ databaseUrl: database.url, onlyRuns: [started.runId], ticksSchedules: false, webhook: null, timings });
  try {
    expect((await service.wait(started.runId, { timeoutMs: 60_000 }))?.status).toBe("completed");
  } finally {
    await worker.stop();
  }
  return started.runId;
}

describe("a pinned run of the demo", () => {
  let testCase: TestCase;

  beforeAll(async () => {
    const before = realToolCalls.count;
    const runId = await recordDemoRun("convert 5 kilometre to mile");
    // The recorded run called the real converter, once.
    expect(realToolCalls.count - before).toBe(1);
    testCase = (await keepRunAsTest(database.client, runId, { name: "5 km in miles", write: false })).testCase;
  }, 120_000);

  it("holds the run's input, outputs, cassette and default assertions", () => {
    expect(testCase).toMatchObject({ name: "5 km in miles", workflow: { id: "demo", serverNodes: ["converter"] }, input: { question: "convert 5 kilometre to mile" } });
    const steps = testCase.nodes.find((node) => node.key === "agent#1")!.steps;
    expect(steps.map((step) => step.key)).toEqual(["agent#1/t1", "agent#1/t1/c0", "agent#1/t2"]);
    expect(steps[1]).toMatchObject({ kind: "tool-call", server: "converter", tool: "convertUnits", arguments: { value: 5, from: "kilometre", to: "mile" }, isError: false });
    expect(steps[0]).toMatchObject({ kind: "model-turn", request: { system: "You are a helpful assistant.", messages: [{ role: "user", content: { prompt: "convert 5 kilometre to mile" } }] } });
    expect(testCase.assertions).toEqual({
      outputs: [{ kind: "exact" }],
      toolCalls: [{ key: "agent#1/t1/c0", tool: "converter/convertUnits", arguments: [{ kind: "exact" }] }],
      modelRequests: [],
    });
  });

  it("replays through the run service with 0 calls to the real tool, and passes", async () => {
    const before = realToolCalls.count;
    const [result] = await runTestCases([{ file: "demo.case.json", testCase }], { parallel: 2 }, dependencies());
    expect(result).toMatchObject({ pass: true, failures: [], diff: null });
    expect(realToolCalls.count - before).toBe(0);
    // The run is an ordinary run of the demo, started as a test; its cassette call wrote the trace row.
    const run = await database.client.run.findUniqueOrThrow({ where: { id: result.runId! }, include: { toolCalls: true } });
    expect(JSON.parse(run.origin!)).toEqual({ kind: "test" });
    expect(run.workflowId).toBe("demo");
    expect(run.toolCalls.map((call) => [call.server, call.tool, call.stepKey])).toEqual([["converter", "convertUnits", "agent#1/t1/c0"]]);
  }, 120_000);

  it("fails naming the node when the document no longer has one the cassette needs", async () => {
    const document = structuredClone(demoWorkflow.document) as { nodes: Array<{ id: string }>; edges: Array<{ source: string }> };
    document.nodes = document.nodes.filter((node) => node.id !== "converter");
    document.edges = document.edges.filter((edge) => edge.source !== "converter");
    const [result] = await runTestCases([{ file: "demo.case.json", testCase }], { document }, dependencies());
    expect(result.pass).toBe(false);
    expect(result.runId).toBeNull();
    expect(result.failures).toEqual(['the document has no node "converter" (the cassette\'s agent#1/t1/c0 calls converter/convertUnits)']);
  }, 60_000);

  it("fails a call the cassette lacks, naming it with its arguments", async () => {
    const changed = structuredClone(testCase);
    // The recorded run asked for 5 km; the cassette now holds a call for 6.
    const call = changed.nodes.find((node) => node.key === "agent#1")!.steps[1];
    if (call.kind !== "tool-call") throw new Error("expected the call");
    call.arguments = { value: 6, from: "kilometre", to: "mile" };
    const before = realToolCalls.count;
    const [result] = await runTestCases([{ file: "demo.case.json", testCase: changed }], {}, dependencies());
    expect(result.pass).toBe(false);
    expect(result.failures[0]).toBe('a call the cassette lacks: converter/convertUnits {"value":5,"from":"kilometre","to":"mile"} (agent#1/t1/c0)');
    expect(realToolCalls.count - before).toBe(0);
    // With live tools, the call the cassette lacks is made for real.
    const [live] = await runTestCases([{ file: "demo.case.json", testCase: changed }], { liveTools: true }, dependencies());
    expect(realToolCalls.count - before).toBe(1);
    expect(live.failures).toEqual(['tool call 1 converter/convertUnits arguments: value: expected 6, got 5']);
  }, 120_000);
});
