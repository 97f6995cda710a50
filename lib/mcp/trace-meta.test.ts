import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalEnvironment } from "../runs/local-environment";
import type { Workflow } from "../graph";
import { forgetNodeRunSpan, rememberNodeRunSpan } from "../trace/otel/node-run-spans";
import { spanIdOf } from "../trace/otel/trace-context";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { traceMetaOf, traceParentOf } from "./trace-meta";
import { createWorkflowEndpoint, type OutsideCall, type WorkflowEndpoint } from "./workflow-endpoint";

const hostTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
const hostSpan = "00f067aa0ba902b7";

describe("trace context in MCP _meta", () => {
  let endpoint: WorkflowEndpoint | undefined;
  let connection: InMemoryConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    await endpoint?.close();
  });

  it("reads the traceparent an outside host sends on a call to the app's endpoint, for the run it opens", async () => {
    const calls: OutsideCall[] = [];
    const workflow = { version: 1, name: "Endpoint", nodes: [{ id: "converter", type: "unit-converter", position: { x: 0, y: 0 }, config: {} }], edges: [] } satisfies Workflow;
    endpoint = createWorkflowEndpoint({
      workflowId: "endpoint",
      workflow,
      env: await createLocalEnvironment(),
      openRun: async (call) => (calls.push(call), { runId: "run-1", recordCall: async () => {}, end: async () => {} }),
      runTask: async () => {
        throw new Error("no tasks here");
      },
    });
    connection = await connectInMemory(endpoint.server, "traced-host");
    const result = (await connection.client.callTool({ name: "convertUnits", arguments: { value: 1, from: "mile", to: "kilometre" }, _meta: { traceparent: `00-${hostTrace}-${hostSpan}-01` } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    await connection.client.callTool({ name: "convertUnits", arguments: { value: 2, from: "mile", to: "kilometre" } });
    expect(calls.map((call) => call.traceParent)).toEqual([{ traceId: hostTrace, spanId: hostSpan, sampled: true }, null]);
  });

  it("builds the _meta of an outgoing call from the calling node run's span while it is exported", () => {
    expect(traceMetaOf("node-run-1")).toEqual({});
    rememberNodeRunSpan("node-run-1", hostTrace);
    expect(traceMetaOf("node-run-1")).toEqual({ traceparent: `00-${hostTrace}-${spanIdOf({ kind: "node", nodeRunId: "node-run-1" })}-01` });
    forgetNodeRunSpan("node-run-1");
    expect(traceMetaOf("node-run-1")).toEqual({});
    expect(traceMetaOf(undefined)).toEqual({});
  });

  it("ignores a _meta without a valid traceparent", () => {
    expect(traceParentOf(undefined)).toBeNull();
    expect(traceParentOf({ traceparent: "not-one" })).toBeNull();
    expect(traceParentOf({ traceparent: `00-${hostTrace}-${hostSpan}-00` })).toEqual({ traceId: hostTrace, spanId: hostSpan, sampled: false });
  });
});
