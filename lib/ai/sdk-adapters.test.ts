import { describe, expect, it } from "vitest";
import { driveAgent } from "../../testing/ai/drive-agent.fixture";
import { startOpenAIChatServer } from "../../testing/ai/openai-chat-server.fixture";
import type { WireReplyScript } from "../../testing/ai/reply-script.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import { startVendorServer, type Vendor, vendorBaseUrl } from "../../testing/ai/vendor-servers.fixture";
import { lisbon, weatherToolsWith } from "../../testing/ai/weather-tools.fixture";
import { startWireServer } from "../../testing/ai/wire-server.fixture";
import { AdapterSettingsError, sdkAdapter, type SdkAdapterSettings } from "./sdk-adapters";

// The AI SDK adapters (ai 7 + @ai-sdk providers) driven through the platform's turn loop against
// the wire-format fixture servers: what the SDK puts on the wire, and what the loop gets back.

// The SDK warns about unknown model ids ("fixture-model"); the tests do not need that noise.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const servers = serversClosedAfterEach();

const placeSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false };
const forecastSchema = { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } }, required: ["latitude", "longitude"], additionalProperties: false };
const weatherTools = () => weatherToolsWith({ place: placeSchema, forecast: forecastSchema });

/** Three turns: two calls in parallel (one fails), then the forecast, then the answer. */
const chain: WireReplyScript = [
  { text: "Checking.", toolCalls: [{ name: "findPlace", arguments: { name: "Atlantis" } }, { name: "findPlace", arguments: { name: "Lisbon" } }], usage: { input: 100, output: 10 } },
  { toolCalls: [{ name: "getForecast", arguments: lisbon }], usage: { input: 150, output: 12 } },
  { text: "Sunny and 24°C in Lisbon.", usage: { input: 200, output: 7 } },
];

async function adapterAgainst(kind: Vendor, script: WireReplyScript, settings: Omit<SdkAdapterSettings, "model"> & { model?: string }) {
  const server = await startVendorServer(kind, script, { argumentPieces: 4, textPieces: 3 });
  servers.push(server);
  const protocol = sdkAdapter({ model: "fixture-model", baseUrl: vendorBaseUrl(kind, server), allowedOrigins: [server.url], systemPrompt: "You are terse.", ...settings });
  return { server, protocol };
}

async function runChain(protocol: ReturnType<typeof sdkAdapter>, maxTurns = 10) {
  const { tools, ran } = weatherTools();
  const { result } = await driveAgent({ protocol, tools, maxTurns, inputs: { prompt: "Weather in Lisbon?" }, instructions: "Always call findPlace first." });
  return { result, ran };
}

describe.each([
  ["openai-compatible", false],
  ["openai-compatible", true],
  ["openai", false],
  ["openai", true],
] as const)("the %s adapter (streamed: %s) against an OpenAI chat-completions server", (adapter, stream) => {
  it("runs the chain: tools offered with tool_choice auto, assistant tool_calls then role:tool results, usage summed", async () => {
    const { server, protocol } = await adapterAgainst("openai", chain, { adapter, apiKey: "sk-test", temperature: 0.3, stream });
    const { result, ran } = await runChain(protocol);
    expect(result).toMatchObject({ status: "completed", text: "Sunny and 24°C in Lisbon.", turns: 3, toolCalls: 3 });
    expect(result.usage).toEqual({ inputTokens: 450, outputTokens: 29 });
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["findPlace", { name: "Atlantis" }],
      ["findPlace", { name: "Lisbon" }],
      ["getForecast", lisbon],
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(Array(3).fill("/v1/chat/completions"));
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-test");
    const first = server.requests[0].body;
    expect(first).toMatchObject({
      model: "fixture-model",
      temperature: 0.3,
      messages: [
        { role: "system", content: "You are terse.\n\nAlways call findPlace first." },
        { role: "user", content: "Weather in Lisbon?" },
      ],
      tool_choice: "auto",
    });
    expect(first.tools.map((tool: { type: string; function: { name: string; description: string; parameters: unknown } }) => [tool.type, tool.function.name, tool.function.description, tool.function.parameters])).toEqual([
      ["function", "findPlace", "Find a place by name; returns its coordinates.", placeSchema],
      ["function", "getForecast", "Forecast the weather at coordinates.", forecastSchema],
    ]);
    if (stream) expect(first).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    else expect(first.stream).not.toBe(true);
    const sent = server.requests[1].body.messages.slice(2);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({
      role: "assistant",
      content: "Checking.",
      tool_calls: [
        { id: "call_1_1", type: "function", function: { name: "findPlace", arguments: '{"name":"Atlantis"}' } },
        { id: "call_1_2", type: "function", function: { name: "findPlace", arguments: '{"name":"Lisbon"}' } },
      ],
    });
    // @ai-sdk/openai marks a failed result as {"error": ...}; the compatible provider sends the text as it is.
    const failed = adapter === "openai" ? JSON.stringify({ error: "No place called Atlantis" }) : "No place called Atlantis";
    expect(sent.slice(1)).toEqual([
      { role: "tool", tool_call_id: "call_1_1", content: failed },
      { role: "tool", tool_call_id: "call_1_2", content: JSON.stringify(lisbon) },
    ]);
    expect(server.requests[2].body.messages.slice(5)).toEqual([
      expect.objectContaining({ role: "assistant", tool_calls: [{ id: "call_2_1", type: "function", function: { name: "getForecast", arguments: JSON.stringify(lisbon) } }] }),
      { role: "tool", tool_call_id: "call_2_1", content: "sunny, 24°C at 38.72,-9.14" },
    ]);
  });

  it("lets no tool be called on the last turn (tool_choice none), and declares none at all with maxTurns 1", async () => {
    const { server, protocol } = await adapterAgainst("openai", [{ toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }] }, { text: "At 38.72, -9.14." }, { text: "One pass." }], { adapter, apiKey: "sk-test", stream });
    const { result } = await runChain(protocol, 2);
    expect(result).toMatchObject({ status: "max_turns", text: "At 38.72, -9.14.", turns: 2 });
    expect(server.requests[0].body).toHaveProperty("tools");
    expect(server.requests[1].body.tool_choice).toBe("none");
    const single = await runChain(protocol, 1);
    expect(single.result).toMatchObject({ status: "completed", text: "One pass.", turns: 1 });
    expect(server.requests[2].body).not.toHaveProperty("tools");
    expect(server.requests[2].body.messages).toHaveLength(2); // a new conversation: system and user only
  });
});

describe.each([false, true])("the anthropic adapter (streamed: %s) against an Anthropic Messages server", (stream) => {
  it("runs the chain: tools with input_schema, tool_use resent, every result of a turn in one user message with is_error", async () => {
    const { server, protocol } = await adapterAgainst("anthropic", chain, { adapter: "anthropic", apiKey: "test-key", maxTokens: 1024, stream });
    const { result, ran } = await runChain(protocol);
    expect(result).toMatchObject({ status: "completed", text: "Sunny and 24°C in Lisbon.", turns: 3, toolCalls: 3 });
    expect(result.usage).toEqual({ inputTokens: 450, outputTokens: 29 });
    expect(ran.map((call) => call.name)).toEqual(["findPlace", "findPlace", "getForecast"]);
    expect(server.requests.map((request) => request.path)).toEqual(Array(3).fill("/v1/messages"));
    expect(server.requests[0].headers).toMatchObject({ "x-api-key": "test-key", "anthropic-version": "2023-06-01" });
    const first = server.requests[0].body;
    expect(first).toMatchObject({ model: "fixture-model", max_tokens: 1024, tool_choice: { type: "auto" } });
    expect(JSON.stringify(first.system)).toContain("You are terse.\\n\\nAlways call findPlace first.");
    expect(first.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Weather in Lisbon?" }] }]);
    expect(first.tools.map((tool: { name: string; description: string; input_schema: unknown }) => [tool.name, tool.description, tool.input_schema])).toEqual([
      ["findPlace", "Find a place by name; returns its coordinates.", placeSchema],
      ["getForecast", "Forecast the weather at coordinates.", forecastSchema],
    ]);
    if (stream) expect(first.stream).toBe(true);
    const messages = server.requests[1].body.messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "toolu_1_1", name: "findPlace", input: { name: "Atlantis" } },
        { type: "tool_use", id: "toolu_1_2", name: "findPlace", input: { name: "Lisbon" } },
      ],
    });
    expect(messages[2].role).toBe("user");
    expect(messages[2].content.map((block: { type: string; tool_use_id: string; is_error?: boolean; content: unknown }) => [block.type, block.tool_use_id, block.is_error ?? false, JSON.stringify(block.content)])).toEqual([
      ["tool_result", "toolu_1_1", true, expect.stringContaining("No place called Atlantis")],
      ["tool_result", "toolu_1_2", false, expect.stringContaining("38.72")],
    ]);
  });

  it("lets no tool be called on the last turn: the tools stay declared (Anthropic needs them to read the tool history) with tool_choice none", async () => {
    const { server, protocol } = await adapterAgainst("anthropic", [{ toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }] }, { text: "At 38.72, -9.14." }], { adapter: "anthropic", apiKey: "test-key", stream });
    const { result } = await runChain(protocol, 2);
    expect(result).toMatchObject({ status: "max_turns", text: "At 38.72, -9.14." });
    expect(server.requests[1].body).toHaveProperty("tools");
    expect(server.requests[1].body.tool_choice).toEqual({ type: "none" });
  });
});

describe("calls the platform answers itself", () => {
  it("arguments that are not JSON come back to the model as an error result, and the loop goes on", async () => {
    const { server, protocol } = await adapterAgainst("openai", [{ toolCalls: [{ name: "findPlace", arguments: '{"name": "Lis' }] }, { text: "Sorry." }], { adapter: "openai-compatible" });
    const { tools, ran } = weatherTools();
    const { result, platform } = await driveAgent({ protocol, tools, inputs: { prompt: "Where is Lisbon?" } });
    expect(ran).toEqual([]);
    expect(platform).toEqual([expect.objectContaining({ callId: "call_1_1", tool: "findPlace", isError: true })]);
    expect(result).toMatchObject({ status: "completed", text: "Sorry.", turns: 2 });
    const sent = server.requests[1].body.messages.slice(2);
    expect(sent[0]).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_1_1", function: { name: "findPlace" } }] });
    expect(sent[1]).toMatchObject({ role: "tool", tool_call_id: "call_1_1", content: expect.stringContaining("not a JSON object") });
    expect(sent).toHaveLength(2);
  });

  it("a call to a tool that was not offered is answered by the platform, not by the SDK", async () => {
    const { server, protocol } = await adapterAgainst("anthropic", [{ toolCalls: [{ name: "launchRockets", arguments: {} }] }, { text: "Understood." }], { adapter: "anthropic", apiKey: "k" });
    const { tools } = weatherTools();
    const { result, platform } = await driveAgent({ protocol, tools, inputs: { prompt: "Launch." } });
    expect(platform).toEqual([expect.objectContaining({ tool: "launchRockets", isError: true })]);
    expect(result).toMatchObject({ status: "completed", text: "Understood." });
    const messages = server.requests[1].body.messages;
    expect(messages).toHaveLength(3);
    expect(messages[2].content).toEqual([expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1_1", is_error: true })]);
  });
});

describe("a request that fails", () => {
  it.each(["openai-compatible", "anthropic"] as const)("ends the %s agent as failed with the API's status and reason, even from an HTML error page", async (adapter) => {
    const server = await startWireServer((_request, response) => {
      response.writeHead(400, { "content-type": "text/html" });
      response.end("<html><body>Bad   request: model not loaded</body></html>");
    });
    servers.push(server);
    const protocol = sdkAdapter({ adapter, model: "m", apiKey: "k", baseUrl: adapter === "anthropic" ? server.url : `${server.url}/v1`, allowedOrigins: [server.url] });
    const { result } = await driveAgent({ protocol, inputs: { prompt: "hi" } });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/^the model API answered 400: /);
    expect(result.error).toContain("Bad request: model not loaded");
  });
});

describe("a model that stops answering", () => {
  it.each([false, true])("is cut at the turn's time limit (streamed: %s), and the node fails saying so", async (stream) => {
    const server = await startWireServer((_request, response) => {
      if (!stream) return; // never answers
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "Half an" }, finish_reason: null }] })}\n\n`);
    });
    servers.push(server);
    const protocol = sdkAdapter({ adapter: "openai-compatible", model: "m", baseUrl: `${server.url}/v1`, allowedOrigins: [server.url], stream, timeoutMs: 300 });
    const { result } = await driveAgent({ protocol, inputs: { prompt: "hi" } });
    expect(result).toMatchObject({ status: "failed", error: "the model did not answer within 300 ms" });
  });
});

describe("the adapters' requests go through the URL guard", () => {
  it("refuses a loopback base URL that the run does not allow, before any request is sent", async () => {
    const server = await startOpenAIChatServer([{ text: "never" }]);
    servers.push(server);
    for (const adapter of ["openai-compatible", "openai"] as const) {
      const protocol = sdkAdapter({ adapter, model: "m", baseUrl: `${server.url}/v1`, apiKey: "sk-test", maxTokens: 10 });
      const { result } = await driveAgent({ protocol, inputs: { prompt: "hi" } });
      expect(result.status).toBe("failed");
      expect(result.error).toMatch(/127\.0\.0\.1|loopback|private/i);
    }
    expect(server.requests).toEqual([]);
  });

  it("refuses the cloud metadata address even for anthropic", async () => {
    const protocol = sdkAdapter({ adapter: "anthropic", model: "m", baseUrl: "http://169.254.169.254", apiKey: "k" });
    const { result } = await driveAgent({ protocol, inputs: { prompt: "hi" } });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/169\.254\.169\.254|metadata|link-local/i);
  });

  it("reaches a private server whose origin is listed", async () => {
    const server = await startOpenAIChatServer([{ text: "Local hello." }]);
    servers.push(server);
    const protocol = sdkAdapter({ adapter: "openai-compatible", model: "llama3.1", baseUrl: `${server.url}/v1`, allowedOrigins: [new URL(server.url).origin] });
    const { result } = await driveAgent({ protocol, inputs: { prompt: "hi" } });
    expect(result).toMatchObject({ status: "completed", text: "Local hello." });
    expect(server.requests[0].headers.authorization).toBeUndefined(); // no key, no Authorization header
  });
});

describe("adapter settings", () => {
  it("say which setting is missing", () => {
    expect(() => sdkAdapter({ adapter: "anthropic", model: "m" })).toThrow(AdapterSettingsError);
    expect(() => sdkAdapter({ adapter: "anthropic", model: "m" })).toThrow(/API key/);
    expect(() => sdkAdapter({ adapter: "openai-compatible", model: "m" })).toThrow(/base URL/);
    expect(() => sdkAdapter({ adapter: "openai", model: "" })).toThrow(/needs a model/);
  });
});
