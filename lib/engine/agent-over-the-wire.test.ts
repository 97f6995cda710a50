import { randomUUID } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicMessagesServer } from "../../testing/ai/anthropic-messages-server.fixture";
import { startOpenAIChatServer } from "../../testing/ai/openai-chat-server.fixture";
import type { WireReplyScript } from "../../testing/ai/reply-script.fixture";
import type { WireServer } from "../../testing/ai/wire-server.fixture";
import { parseWorkflow, type WorkflowInput } from "../graph";
import { lintNodes } from "../manifest";
import { MemorySink } from "../trace/memory-sink";
import { createLocalEnvironment } from "../runs/local-environment";
import { type FixtureServer, startFixtureServer } from "../calls/fixture-server";
import { runWorkflow } from "./run-workflow";

// Whole runs with the real model resolver: a shipped agent (declarative protocol) and an AI SDK
// adapter agent, each wired to the shipped weather node served over MCP, talking real HTTP to a
// wire-format model server; the weather node's own calls go to Open-Meteo fixtures.

let nodesDir: string;
let openMeteo: FixtureServer;
const servers: WireServer[] = [];

/** An agent on the anthropic AI SDK adapter: the shipped anthropic agent with `adapter: anthropic` instead of the declarative protocol. */
const sdkAgentFiles = {
  "api/toolExchange.yaml": `adapter: anthropic\nmaxTurns: "{{ config.maxTurns }}"\nstuckAfterRepeats: 3\n`,
};

beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-wire-"));
  nodesDir = path.join(root, "nodes");
  await cp(path.resolve("nodes"), nodesDir, { recursive: true });
  const sdkAgent = path.join(nodesDir, "anthropic-sdk-agent");
  await cp(path.join(nodesDir, "anthropic-agent"), sdkAgent, { recursive: true });
  await rm(path.join(sdkAgent, "api", "run.yaml"));
  await rm(path.join(sdkAgent, "test.yaml"));
  const interfaceFile = path.join(sdkAgent, "interface.yaml");
  await writeFile(interfaceFile, (await readFile(interfaceFile, "utf8")).replace("name: anthropic-agent", "name: anthropic-sdk-agent"));
  for (const [file, text] of Object.entries(sdkAgentFiles)) {
    await mkdir(path.dirname(path.join(sdkAgent, file)), { recursive: true });
    await writeFile(path.join(sdkAgent, file), text);
  }
  // The weather node's own test fixtures stand in for Open-Meteo.
  const weather = (await lintNodes(path.resolve("nodes"))).nodes.find((node) => node.name === "weather");
  const cases = weather?.manifest?.test?.testData ?? [];
  const replies = [cases.find((item) => item.call?.method === "findPlace"), cases.find((item) => item.call?.method === "getForecast")].flatMap((item) => item?.fixtures?.http ?? []);
  openMeteo = await startFixtureServer(replies);
});

afterAll(async () => {
  await openMeteo.close();
  await rm(path.dirname(nodesDir), { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function weatherWorkflow(agent: { type: string; config: Record<string, unknown> }): WorkflowInput {
  return {
    version: 1,
    name: "weather over the wire",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "agent", type: agent.type, position: { x: 200, y: 0 }, config: { maxTurns: 6, ...agent.config } },
      { id: "weather", type: "weather", position: { x: 200, y: 200 }, config: { geocodingUrl: openMeteo.url, forecastUrl: openMeteo.url } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
      { id: "e2", kind: "service", source: "weather", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
      { id: "e3", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  };
}

/** The model: find the place, forecast at the coordinates findPlace returned, then answer. */
function weatherScript(lastResult: (body: { messages: unknown[] }) => string): WireReplyScript {
  return [
    { toolCalls: [{ name: "findPlace", arguments: { name: "Springfield", countryCode: "US", limit: 2 } }], usage: { input: 300, output: 20 } },
    (request) => {
      const { places } = JSON.parse(lastResult(request.body));
      return { toolCalls: [{ name: "getForecast", arguments: { latitude: places[0].latitude, longitude: places[0].longitude, days: 2 } }], usage: { input: 500, output: 25 } };
    },
    (request) => ({ text: `Forecast for Springfield: ${JSON.parse(lastResult(request.body)).timezone}.`, usage: { input: 900, output: 15 } }),
  ];
}

/** A run whose stored credentials may go to the wire fixture (as if a person had added its origin when storing them). */
async function run(document: WorkflowInput, credentials: Record<string, Record<string, string>>) {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const origins = servers.map((server) => new URL(server.url).origin);
  const env = await createLocalEnvironment({ nodesDir, overrides: { allowedPrivateOrigins: [openMeteo.url, ...servers.map((server) => server.url)].map((url) => new URL(url).origin), credentials: () => credentials, credentialOrigins: () => origins } });
  const sink = new MemorySink();
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "Weather in Springfield, Missouri?" }, sink, env });
  return { outcome, sink };
}

describe("an agent run over the wire, with the real model resolver", () => {
  it("loads the adapter agent without lint errors", async () => {
    const catalogue = await lintNodes(nodesDir);
    expect(catalogue.problems.filter((problem) => problem.severity === "error").map((problem) => `${problem.file}:${problem.line} ${problem.message}`)).toEqual([]);
  });

  it("openai-agent (shipped declarative protocol) + weather over MCP: connector instructions in the system prompt, a two-tool chain, one trace row per call", async () => {
    const model = await startOpenAIChatServer(weatherScript((body) => (body.messages.at(-1) as { content: string }).content));
    servers.push(model);
    const { outcome, sink } = await run(weatherWorkflow({ type: "openai-agent", config: { baseUrl: `${model.url}/v1`, model: "fixture-model" } }), { openai: { apiKey: "sk-test" } });

    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "Forecast for Springfield: Europe/Paris." } });
    const first = model.requests[0].body;
    expect(first.messages[0].content).toMatch(/^You are a helpful assistant[^]*\n\nAlways call findPlace first and pass the latitude and longitude/);
    expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name).sort()).toEqual(["findPlace", "getForecast"]);
    expect(model.requests[1].body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1_1" });
    expect(model.requests[2].body.messages).toHaveLength(6);
    expect(sink.toolCalls.map((row) => [row.server, row.tool, row.caller, row.isError, row.inputTokens])).toEqual([
      ["weather", "findPlace", "agent", false, 300],
      ["weather", "getForecast", "agent", false, 500],
    ]);
    expect(JSON.stringify(sink)).not.toContain("sk-test");
    expect(openMeteo.requests.map((request) => request.path)).toEqual(expect.arrayContaining(["/v1/search", "/v1/forecast"]));
  });

  it("an agent on the anthropic AI SDK adapter + weather over MCP: the same chain through resolveModel", async () => {
    // The SDK's Anthropic provider sends a tool result as text or as a list of text parts: read either.
    const resultText = (body: { messages: unknown[] }) => {
      const content = (body.messages.at(-1) as { content: Array<{ content: string | Array<{ text: string }> }> }).content[0].content;
      return typeof content === "string" ? content : content.map((part) => part.text).join("");
    };
    const model = await startAnthropicMessagesServer(weatherScript(resultText));
    servers.push(model);
    const { outcome, sink } = await run(weatherWorkflow({ type: "anthropic-sdk-agent", config: { baseUrl: model.url, model: "claude-sonnet-4-5", maxTokens: 2048 } }), { anthropic: { apiKey: "test-key" } });
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "Forecast for Springfield: Europe/Paris." } });
    expect(model.requests[0].headers["x-api-key"]).toBe("test-key");
    expect(model.requests[0].body).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 2048, tool_choice: { type: "auto" } });
    expect(JSON.stringify(model.requests[0].body.system)).toContain("Always call findPlace first");
    expect(sink.toolCalls.map((row) => [row.tool, row.isError])).toEqual([
      ["findPlace", false],
      ["getForecast", false],
    ]);
  });
});
