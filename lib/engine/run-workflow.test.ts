import { randomUUID } from "node:crypto";
import { cp, mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel, type ScriptedTurn } from "../../testing/ai/scripted-model.fixture";
import { parseWorkflow, type WorkflowInput } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";

let nodesDir: string;
let hangingServer: Server;
let hangingUrl: string;

/** A service node whose one method calls a server that never answers, with a short timeout. */
const slowService = {
  "interface.yaml": `name: slow-service
title: Slow service
description: Calls a server that never answers.
category: Services
kind: PromiseNode
serviceConnectors:
  - name: mcpService
    serviceType: mcp
    isService: true
    methods: [fetchSlowly]
`,
  "config.yaml": `configSchema:
  type: object
  properties:
    baseUrl: { type: string }
`,
  "api/service.yaml": `fetchSlowly:
  description: Fetch something from a server that hangs.
  readOnly: true
  inputs: { type: object, properties: {}, additionalProperties: false }
  calls:
    - name: hang
      url: "{{ config.baseUrl }}/hang"
      timeoutMs: 300
`,
};

beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-engine-"));
  nodesDir = path.join(root, "nodes");
  await cp(path.resolve("nodes"), nodesDir, { recursive: true });
  for (const [file, text] of Object.entries(slowService)) {
    await mkdir(path.dirname(path.join(nodesDir, "slow-service", file)), { recursive: true });
    await writeFile(path.join(nodesDir, "slow-service", file), text);
  }
  hangingServer = createServer(() => {}); // TEST DOUBLE: accepts requests and never answers
  await new Promise<void>((resolve) => hangingServer.listen(0, "127.0.0.1", resolve));
  hangingUrl = `http://127.0.0.1:${(hangingServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  hangingServer.closeAllConnections();
  await new Promise((resolve) => hangingServer.close(resolve));
  await rm(path.dirname(nodesDir), { recursive: true, force: true });
});

function agentWorkflow(provider: { type: string; config?: Record<string, unknown> }): WorkflowInput {
  return {
    version: 1,
    name: "test",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "agent", type: "openai-agent", position: { x: 200, y: 0 }, config: { maxTurns: 6 } },
      { id: "tools", type: provider.type, position: { x: 200, y: 200 }, config: provider.config ?? {} },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
      { id: "e2", kind: "service", source: "tools", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
      { id: "e3", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  };
}

async function run(document: WorkflowInput, script: Array<ScriptedTurn | ((request: never) => ScriptedTurn)>, options: { signal?: AbortSignal } = {}) {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const model = scriptedModel(script as never);
  const env = await createLocalEnvironment({ nodesDir, overrides: { models: () => model, allowedPrivateOrigins: [hangingUrl] } });
  const sink = new MemorySink();
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "How far is a marathon in km?" }, sink, env, signal: options.signal });
  return { outcome, sink, model };
}

describe("runWorkflow", () => {
  it("runs an agent over a real service node: a two-tool chain, one trace row per call", async () => {
    const { outcome, sink, model } = await run(agentWorkflow({ type: "unit-converter" }), [
      { toolCalls: [{ name: "listUnits", arguments: { dimension: "length" } }] },
      { toolCalls: [{ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" } }] },
      (request: { results: Array<{ output: string }> }) => ({ text: `A marathon is ${JSON.parse(request.results[0].output).result} km.` }),
    ]);
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "A marathon is 42.1648128 km." } });
    expect(model.requests[0].tools).toEqual(["convertUnits", "listUnits"]);
    expect(sink.toolCalls.map((row) => [row.server, row.tool, row.caller, row.isError])).toEqual([
      ["tools", "listUnits", "agent", false],
      ["tools", "convertUnits", "agent", false],
    ]);
    const agentRun = sink.nodeStarts.find((start) => start.nodeId === "agent");
    expect(sink.toolCalls.every((row) => row.nodeRunId === agentRun?.nodeRunId)).toBe(true);
    expect(sink.toolCalls[1].result).toMatchObject({ result: 42.1648128, from: "mile" });
    expect(sink.nodeEnds.find((end) => end.nodeRunId === agentRun?.nodeRunId)).toMatchObject({ status: "completed", turns: 3 });
  });

  it("writes exactly one row for every call the model makes, answered or refused", async () => {
    const same = { toolCalls: [{ name: "listUnits", arguments: {} }] };
    const { outcome, sink } = await run(agentWorkflow({ type: "unit-converter" }), [
      { toolCalls: [{ name: "convertUnits", arguments: { value: 1, from: "kilogram", to: "metre" } }, { name: "noSuchTool", arguments: {} }] },
      same,
      same,
      same,
      { text: "gave up" },
    ]);
    expect(sink.toolCalls).toHaveLength(5);
    expect(sink.toolCalls.map((row) => row.isError)).toEqual([true, true, false, false, true]);
    expect(sink.toolCalls[0].error).toMatch(/different dimensions/);
    expect(outcome.status).toBe("completed");
  });

  it("cuts a hung tool at its timeout, tells the model, and the run goes on", async () => {
    const { outcome, sink, model } = await run(agentWorkflow({ type: "slow-service", config: { baseUrl: hangingUrl } }), [
      { toolCalls: [{ name: "fetchSlowly", arguments: {} }] },
      (request: { results: Array<{ output: string; isError: boolean }> }) => ({ text: request.results[0].isError ? "the tool timed out" : "?" }),
    ]);
    expect(model.requests[1].results[0].output).toMatch(/timed out after 300 ms/);
    expect(sink.toolCalls[0]).toMatchObject({ tool: "fetchSlowly", isError: true });
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "the tool timed out" } });
  });

  it("fails clearly on a bad input and on a bad graph, before any node runs", async () => {
    const parsed = parseWorkflow(agentWorkflow({ type: "unit-converter" }));
    if (!parsed.ok) throw new Error("fixture");
    const env = await createLocalEnvironment({ nodesDir, overrides: { models: () => scriptedModel([]) } });
    const sink = new MemorySink();
    const badInput = await runWorkflow({ runId: "r1", workflowId: null, workflow: parsed.workflow, input: { question: 42 }, sink, env });
    expect(badInput).toMatchObject({ status: "failed" });
    expect(badInput.error).toMatch(/input/);
    const broken = { ...parsed.workflow, edges: [...parsed.workflow.edges, { id: "bad", kind: "signal" as const, source: "agent", sourceHandle: "answer", target: "ghost", targetHandle: "x" }] };
    const badGraph = await runWorkflow({ runId: "r2", workflowId: null, workflow: broken, input: { question: "q" }, sink, env });
    expect(badGraph.status).toBe("failed");
    expect(badGraph.error).toMatch(/ghost/);
    expect(sink.nodeStarts).toHaveLength(0);
  });

  it("stops when the run is cancelled and ends every node with a status", async () => {
    const controller = new AbortController();
    const { outcome, sink } = await run(
      agentWorkflow({ type: "slow-service", config: { baseUrl: hangingUrl } }),
      [
        () => {
          setTimeout(() => controller.abort(), 50);
          return { toolCalls: [{ name: "fetchSlowly", arguments: {} }] };
        },
        { text: "not reached" },
      ],
      { signal: controller.signal },
    );
    expect(outcome.status).toBe("cancelled");
    expect(sink.nodeEnds.find((end) => sink.nodeStarts.find((start) => start.nodeRunId === end.nodeRunId)?.nodeId === "agent")?.status).toBe("cancelled");
  });

  it("runs the shipped demo with the offline model, offline", async () => {
    const { demoWorkflow } = await import("../db/demo-workflow");
    const parsed = parseWorkflow(demoWorkflow.document);
    if (!parsed.ok) throw new Error("demo");
    const sink = new MemorySink();
    const outcome = await runWorkflow({ runId: "demo", workflowId: "demo", workflow: parsed.workflow, input: { question: "Convert 26.2 mile to kilometre" }, sink, env: await createLocalEnvironment({ nodesDir }) });
    expect(outcome.status).toBe("completed");
    expect(sink.toolCalls.map((row) => row.tool)).toEqual(["convertUnits"]);
    expect(String(outcome.outputs.result)).toContain("42.1648128");
  });
});
