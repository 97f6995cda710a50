import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EngineEnvironment } from "../engine";
import { createLocalEnvironment } from "../runs/local-environment";
import type { TaskRequest } from "../engine/run-context";
import type { Workflow } from "../graph";
import type { NodeManifest } from "../manifest";
import type { ToolCallRow } from "../trace/run-events";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { createWorkflowEndpoint, type OutsideCall, type OutsideCallEnd, type WorkflowEndpoint } from "./workflow-endpoint";

/** A service node whose one method needs a credential nobody has stored. */
const locked = {
  interface: {
    name: "locked-service",
    title: "Locked service",
    credentials: [{ name: "vault", displayName: "Vault key", fields: ["key"], required: true }],
    serviceConnectors: [{ name: "mcpService", isService: true, methods: ["openVault"] }],
  },
  service: { openVault: { description: "Opens the vault.", inputs: { type: "object", properties: {} }, calls: [] } },
} as unknown as NodeManifest;

const workflow = {
  version: 1,
  name: "Endpoint",
  nodes: [
    { id: "vault", type: "locked-service", position: { x: 0, y: 0 }, config: {} },
    { id: "slow", type: "task-start", position: { x: 0, y: 200 }, config: { title: "Think slowly", description: "Takes its time.", inputs: [] } },
    { id: "slow-end", type: "task-end", position: { x: 300, y: 200 }, config: {} },
  ],
  edges: [],
} satisfies Workflow;

/** TEST DOUBLE for the app's runs: records what each call's run received, in memory. */
function memoryRuns() {
  const runs: Array<{ call: OutsideCall; rows: ToolCallRow[]; end?: OutsideCallEnd; request?: TaskRequest }> = [];
  return {
    runs,
    openRun: async (call: OutsideCall) => {
      const run = { call, rows: [] as ToolCallRow[], end: undefined as OutsideCallEnd | undefined };
      runs.push(run);
      return { runId: `run-${runs.length}`, recordCall: async (row: ToolCallRow) => void run.rows.push(row), end: async (outcome: OutsideCallEnd) => void (run.end = outcome) };
    },
    /** A sub-flow that runs until it is cancelled. */
    runTask: async (call: OutsideCall, request: TaskRequest) => {
      const run = { call, rows: [] as ToolCallRow[], end: undefined as OutsideCallEnd | undefined, request };
      runs.push(run);
      await new Promise((resolve) => request.signal?.addEventListener("abort", resolve, { once: true }));
      return {
        outcome: { ok: false as const, message: "the run was cancelled" },
        finish: async (row: ToolCallRow) => {
          run.rows.push(row);
          run.end = { ok: false, error: row.error ?? "" };
        },
      };
    },
  };
}

let env: EngineEnvironment;
beforeAll(async () => {
  env = await createLocalEnvironment();
  env.catalogue = { ...env.catalogue, nodes: [...env.catalogue.nodes, { name: "locked-service", dir: "nodes/locked-service", manifest: locked, problems: [] }] };
});

describe("createWorkflowEndpoint", () => {
  let endpoint: WorkflowEndpoint | undefined;
  let connection: InMemoryConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    await endpoint?.close();
  });

  async function serve() {
    const runs = memoryRuns();
    endpoint = createWorkflowEndpoint({ workflowId: "endpoint", workflow, env, openRun: runs.openRun, runTask: runs.runTask, taskPollInterval: 10 });
    connection = await connectInMemory(endpoint.server, "fake-host");
    // The client learns which tools are task-required from the list.
    await connection.client.listTools();
    return { ...runs, client: connection.client, endpoint };
  }

  it("refuses a call whose node lacks a required credential with a result that says so, and traces it", async () => {
    const { client, runs } = await serve();
    const result = (await client.callTool({ name: "openVault", arguments: {} })) as CallToolResult;
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("needs the credential 'Vault key'") }] });
    expect(runs).toHaveLength(1);
    expect(runs[0].call).toMatchObject({ kind: "service", tool: "openVault", server: "vault", host: { name: "fake-host" } });
    expect(runs[0].rows).toEqual([expect.objectContaining({ caller: "mcp-host:fake-host", nodeRunId: null, runId: "run-1", isError: true })]);
    expect(runs[0].end).toEqual({ ok: false, error: expect.stringContaining("Vault key") });
  });

  it("cancels a task on tasks/cancel: its sub-flow hears it and its run gets the one row", async () => {
    const { client, runs, endpoint } = await serve();
    const stream = client.experimental.tasks.callToolStream({ name: "think_slowly", arguments: {} }, CallToolResultSchema);
    const first = await stream.next();
    const taskId = first.value && first.value.type === "taskCreated" ? first.value.task.taskId : "";
    await expect.poll(() => runs.length).toBe(1);
    expect(endpoint.busy()).toBe(true);
    expect((await client.experimental.tasks.cancelTask(taskId)).status).toBe("cancelled");
    await expect.poll(() => runs[0].rows.length).toBe(1);
    expect(runs[0].request?.signal?.aborted).toBe(true);
    expect(runs[0].rows[0]).toMatchObject({ caller: "mcp-host:fake-host", nodeRunId: null, server: "slow", tool: "think_slowly", error: "the task was cancelled", isError: true });
    expect(runs[0].rows[0].id).toBe(runs[0].request?.parentToolCallId);
    expect(endpoint.busy()).toBe(false);
    await stream.return(undefined);
  });

  it("cancels the tasks still running when the session closes", async () => {
    const { client, runs, endpoint } = await serve();
    const stream = client.experimental.tasks.callToolStream({ name: "think_slowly", arguments: {} }, CallToolResultSchema);
    await stream.next();
    await expect.poll(() => runs.length).toBe(1);
    await endpoint.close();
    expect(runs[0].rows).toEqual([expect.objectContaining({ error: "the task was cancelled" })]);
    expect(endpoint.busy()).toBe(false);
  });

  it("answers a plain call of a task tool by waiting for it (the blocking fallback); the host giving up cancels the task", async () => {
    const { client, runs } = await serve();
    const controller = new AbortController();
    const call = client.request({ method: "tools/call", params: { name: "think_slowly", arguments: {} } }, CallToolResultSchema, { signal: controller.signal });
    await expect.poll(() => runs.length).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => runs[0].rows.length).toBe(1);
    expect(runs[0].rows[0]).toMatchObject({ caller: "mcp-host:fake-host", error: "the task was cancelled", isError: true });
  });
});
