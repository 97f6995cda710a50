/**
 * The engine's cost per tool call: a service node served over in-memory MCP
 * (arguments checked against the method's schema, the method run, the trace
 * row written to a sink), as a ratio to a bare SDK client → server call in
 * the same process (target: under 2). A method whose `returns` is a
 * sandboxed `return` snippet is shown apart: the sandbox has its own bench.
 *
 *   npx tsx bench/tool-call.bench.ts [calls]
 */
import { performance } from "node:perf_hooks";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { serviceManifest, interfaceManifest } from "../lib/manifest/schemas";
import { connectInMemory } from "../lib/mcp/in-memory-connection";
import { callerMetaKey } from "../lib/mcp/caller-meta";
import { createServiceNodeServer } from "../lib/mcp/service-node-server";
import { sharedSandbox } from "../lib/sandbox";
import { MemorySink } from "../lib/trace/memory-sink";

const calls = Number(process.argv[2] ?? 2000);

async function time(label: string, call: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 200; index++) await call(); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let index = 0; index < calls; index++) await call();
    samples.push(((performance.now() - start) * 1000) / calls);
  }
  const median = samples.sort((a, b) => a - b)[2];
  console.log(`${label.padEnd(52)} ${median.toFixed(1).padStart(8)} µs/call`);
  return median;
}

// Baseline: the SDK alone, a high-level McpServer tool that echoes its argument.
const bare = new McpServer({ name: "bare", version: "1.0.0" });
bare.registerTool("echo", { description: "Echo", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
const bareConnection = await connectInMemory(bare.server);

const manifest = {
  interface: interfaceManifest.parse({
    name: "echo-service",
    title: "Echo",
    description: "Echoes.",
    category: "Bench",
    kind: "PromiseNode",
    serviceConnectors: [{ name: "mcpService", serviceType: "mcp", isService: true, methods: ["echoText", "shoutText"] }],
  }),
  service: serviceManifest.parse({
    echoText: { description: "Echo a text.", inputs: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, returns: "{{ params.text }}" },
    shoutText: { description: "Shout a text.", inputs: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, returns: "return params.text.toUpperCase()" },
  }),
};
const sink = new MemorySink();
const server = createServiceNodeServer({ nodeId: "echo", manifest, connector: "mcpService", config: {}, callContext: { evaluator: await sharedSandbox() }, runId: "bench", recordCall: (row) => sink.toolCall(row) });
const engine = await connectInMemory(server);
const meta = { [callerMetaKey]: { nodeRunId: "node-run", nodeId: "agent", callId: "c" } };

const baseline = await time("baseline: bare SDK client → McpServer tool", () => bareConnection.client.callTool({ name: "echo", arguments: { text: "hello" } }));
const templated = await time("engine: service node method (template returns) + trace", () => engine.client.callTool({ name: "echoText", arguments: { text: "hello" }, _meta: meta }));
const snippet = await time("engine: service node method (sandboxed snippet) + trace", () => engine.client.callTool({ name: "shoutText", arguments: { text: "hello" }, _meta: meta }));
console.log(`ratio to baseline: ${(templated / baseline).toFixed(2)}x with a template (target < 2); ${(snippet / baseline).toFixed(2)}x with a sandboxed snippet`);
console.log(`trace rows written: ${sink.toolCalls.length}`);
await bareConnection.close();
await engine.close();
