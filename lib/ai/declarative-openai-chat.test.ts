import { beforeAll, describe, expect, it } from "vitest";
import { configValues } from "../manifest/config-values";
import { sharedSandbox, type Evaluator } from "../sandbox";
import { declarativeProtocol } from "./declarative-exchange";
import { declarativeAgent } from "../../testing/ai/declarative-agent.fixture";
import { driveAgent } from "../../testing/ai/drive-agent.fixture";
import type { StreamCutting, WireReplyScript } from "../../testing/ai/reply-script.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import { shippedAgent } from "../../testing/ai/shipped-agents.fixture";
import { lisbon, weatherToolsWith } from "../../testing/ai/weather-tools.fixture";
import { sendEvents, startWireServer } from "../../testing/ai/wire-server.fixture";

// The shipped nodes/shared/openai-chat(.yaml, -stream.yaml) protocols, driven through the
// declarative interpreter and the platform's turn loop against an OpenAI-shaped server.

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});
const servers = serversClosedAfterEach();

const placeSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false };
const forecastSchema = { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } }, required: ["latitude", "longitude"] };
const weatherTools = () => weatherToolsWith({ place: placeSchema, forecast: forecastSchema });

function openaiAgent(script: WireReplyScript, options: { streamed?: boolean; cutting?: StreamCutting; config?: Record<string, unknown> } = {}) {
  return declarativeAgent({ vendor: "openai", script, ...options, servers });
}

/** The model's second turn: the forecast for the coordinates findPlace returned (read off the request it was sent). */
const forecastFromLastResult: WireReplyScript[number] = (request) => ({ toolCalls: [{ name: "getForecast", arguments: JSON.parse(request.body.messages.at(-1).content) }], usage: { input: 150, output: 12 } });

describe("openai-chat protocol (declarative) against an OpenAI chat-completions server", () => {
  it("runs a two-tool chain: tools offered, the assistant turn and role:tool results sent back, instructions appended, usage summed", async () => {
    const { server, protocol, config, systemPrompt } = await openaiAgent([
      { toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }], usage: { input: 100, output: 10 } },
      forecastFromLastResult,
      { text: "Sunny and 24°C in Lisbon.", usage: { input: 200, output: 7 } },
    ]);
    const { tools, ran } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Weather in Lisbon?" }, instructions: "Always call findPlace first." });

    expect(result).toMatchObject({ status: "completed", text: "Sunny and 24°C in Lisbon.", turns: 3, toolCalls: 2 });
    expect(result.usage).toEqual({ inputTokens: 450, outputTokens: 29 });
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["findPlace", { name: "Lisbon" }],
      ["getForecast", lisbon],
    ]);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(Array(3).fill("POST /v1/chat/completions"));
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-test");

    const first = server.requests[0].body;
    expect(first).toEqual({
      model: "fixture-model",
      temperature: 0.2,
      messages: [
        { role: "system", content: `${systemPrompt}\n\nAlways call findPlace first.` },
        { role: "user", content: "Weather in Lisbon?" },
      ],
      tools: [
        { type: "function", function: { name: "findPlace", description: "Find a place by name; returns its coordinates.", parameters: placeSchema } },
        { type: "function", function: { name: "getForecast", description: "Forecast the weather at coordinates.", parameters: forecastSchema } },
      ],
      tool_choice: "auto",
    });
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      { role: "assistant", content: "", tool_calls: [{ id: "call_1_1", type: "function", function: { name: "findPlace", arguments: '{"name":"Lisbon"}' } }] },
      { role: "tool", tool_call_id: "call_1_1", content: JSON.stringify(lisbon) },
    ]);
    const third = server.requests[2].body;
    expect(third.messages).toHaveLength(6);
    expect(third.messages.slice(0, 4)).toEqual(server.requests[1].body.messages);
    expect(third.messages.slice(4)).toEqual([
      { role: "assistant", content: "", tool_calls: [{ id: "call_2_1", type: "function", function: { name: "getForecast", arguments: JSON.stringify(lisbon) } }] },
      { role: "tool", tool_call_id: "call_2_1", content: "sunny, 24°C at 38.72,-9.14" },
    ]);
    expect(third.tools).toHaveLength(2); // not the last turn: tools are still offered, unchanged
    expect(third.tools).toEqual(first.tools);
  });

  it("answers two calls of one turn with two role:tool messages, in order, after the one assistant message, the failed one marked as an error", async () => {
    const { server, protocol, config } = await openaiAgent([
      { text: "Checking both.", toolCalls: [{ name: "findPlace", arguments: { name: "Atlantis" } }, { name: "findPlace", arguments: { name: "Lisbon" } }] },
      { text: "Lisbon exists; Atlantis does not." },
    ]);
    const { tools } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Where are Atlantis and Lisbon?" } });
    expect(result).toMatchObject({ status: "completed", turns: 2, toolCalls: 2 });
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          { id: "call_1_1", type: "function", function: { name: "findPlace", arguments: '{"name":"Atlantis"}' } },
          { id: "call_1_2", type: "function", function: { name: "findPlace", arguments: '{"name":"Lisbon"}' } },
        ],
      },
      // OpenAI's tool message has no error flag: the failure is said in the content, as @ai-sdk/openai says it.
      { role: "tool", tool_call_id: "call_1_1", content: JSON.stringify({ error: "No place called Atlantis" }) },
      { role: "tool", tool_call_id: "call_1_2", content: JSON.stringify(lisbon) },
    ]);
  });

  it("offers no tools and no tool_choice on the last turn", async () => {
    const { server, protocol, config } = await openaiAgent([{ toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }] }, { text: "Lisbon is at 38.72, -9.14." }]);
    const { tools } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Where is Lisbon?" }, maxTurns: 2 });
    expect(result).toMatchObject({ status: "max_turns", text: "Lisbon is at 38.72, -9.14.", turns: 2 });
    expect(server.requests[0].body).toHaveProperty("tools");
    expect(server.requests[1].body).not.toHaveProperty("tools");
    expect(server.requests[1].body).not.toHaveProperty("tool_choice");
    expect(server.requests[1].body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1_1", content: JSON.stringify(lisbon) });
  });

  it("with maxTurns 1 sends one request with no tools", async () => {
    const { server, protocol, config } = await openaiAgent([{ text: "One pass." }]);
    const { tools, ran } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Hi" }, maxTurns: 1 });
    expect(result).toMatchObject({ status: "completed", text: "One pass.", turns: 1, toolCalls: 0 });
    expect(server.requests).toHaveLength(1);
    expect(Object.keys(server.requests[0].body).sort()).toEqual(["messages", "model", "temperature"]);
    expect(ran).toEqual([]);
  });

  it("with no tools wired makes one plain request", async () => {
    const { server, protocol, config, systemPrompt } = await openaiAgent([{ text: "Hello!", usage: { input: 12, output: 3 } }]);
    const { result } = await driveAgent({ protocol, config, inputs: { prompt: "Say hello." } });
    expect(result).toMatchObject({ status: "completed", text: "Hello!", turns: 1, usage: { inputTokens: 12, outputTokens: 3 } });
    expect(server.requests[0].body.messages).toEqual([
      { role: "system", content: systemPrompt },
      { role: "user", content: "Say hello." },
    ]);
  });
});

describe("openai-chat-stream protocol (declarative) against streamed chat completions", () => {
  it("merges tool-call fragments by index (arguments cut in several chunks, two parallel calls), joins text pieces, reads the usage chunk", async () => {
    const { server, protocol, config } = await openaiAgent(
      [
        {
          text: ["Let me ", "look ", "that up."],
          toolCalls: [
            { name: "findPlace", arguments: { name: "Lisbon" } },
            { name: "getForecast", arguments: lisbon },
          ],
          usage: { input: 100, output: 30 },
        },
        { text: "Sunny and 24°C in Lisbon.", usage: { input: 180, output: 9 } },
      ],
      { streamed: true, cutting: { argumentPieces: 4, textPieces: 5 } },
    );
    const { tools, ran } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Weather in Lisbon?" } });

    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true }, tool_choice: "auto" });
    expect(server.requests[0].headers.accept).toBe("text/event-stream");
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["findPlace", { name: "Lisbon" }],
      ["getForecast", lisbon],
    ]);
    expect(result).toMatchObject({ status: "completed", text: "Sunny and 24°C in Lisbon.", turns: 2, toolCalls: 2 });
    expect(result.usage).toEqual({ inputTokens: 280, outputTokens: 39 });
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Let me look that up.",
        tool_calls: [
          { id: "call_1_1", type: "function", function: { name: "findPlace", arguments: '{"name":"Lisbon"}' } },
          { id: "call_1_2", type: "function", function: { name: "getForecast", arguments: JSON.stringify(lisbon) } },
        ],
      },
      { role: "tool", tool_call_id: "call_1_1", content: JSON.stringify(lisbon) },
      { role: "tool", tool_call_id: "call_1_2", content: "sunny, 24°C at 38.72,-9.14" },
    ]);
  });

  it("streams a plain answer in pieces with no tools offered on a one-turn run", async () => {
    const { server, protocol, config } = await openaiAgent([{ text: "Hello there, traveller!" }], { streamed: true, cutting: { textPieces: 6 } });
    const { result } = await driveAgent({ protocol, config, inputs: { prompt: "Say hello." }, maxTurns: 1 });
    expect(result).toMatchObject({ status: "completed", text: "Hello there, traveller!", usage: { inputTokens: 21, outputTokens: 8 } });
    expect(server.requests[0].body).not.toHaveProperty("tools");
  });
});

describe("openai-chat-stream against compatible servers that stream differently", () => {
  it("keeps two calls apart when the server sends both at index 0 with their own ids (as Ollama does)", async () => {
    // Ollama streams each tool call whole, in one chunk, and numbers every one of them index 0
    // (ollama/ollama#15457). A new id at an index already taken is a new call.
    let turn = 0;
    const server = await startWireServer((_request, response) => {
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: "chatcmpl-o", object: "chat.completion.chunk", created: 1, model: "qwen2.5", choices: [{ index: 0, delta, finish_reason: finish }] });
      const frames =
        turn++ === 0
          ? [
              chunk({ role: "assistant", content: "", tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "findPlace", arguments: '{"name":"Lisbon"}' } }] }),
              chunk({ role: "assistant", content: "", tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "getForecast", arguments: JSON.stringify(lisbon) } }] }),
              chunk({ role: "assistant", content: "" }, "tool_calls"),
            ]
          : [chunk({ role: "assistant", content: "Sunny." }), chunk({}, "stop")];
      sendEvents(response, [...frames.map((data) => ({ data })), { data: "[DONE]" }]);
    });
    servers.push(server);
    const agent = await shippedAgent("openai-agent", { streamed: true });
    const config = configValues(agent.manifest.config, { baseUrl: `${server.url}/v1`, model: "qwen2.5" });
    const protocol = declarativeProtocol({ run: agent.run, exchange: agent.exchange, context: { evaluator, allowedOrigins: [server.url] } });
    const { tools, ran } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Weather in Lisbon?" } });
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["findPlace", { name: "Lisbon" }],
      ["getForecast", lisbon],
    ]);
    expect(result).toMatchObject({ status: "completed", text: "Sunny.", toolCalls: 2 });
    expect(server.requests[1].body.messages[2].tool_calls.map((call: { id: string }) => call.id)).toEqual(["call_a", "call_b"]);
  });
});

