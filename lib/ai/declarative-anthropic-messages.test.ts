import { describe, expect, it } from "vitest";
import { declarativeAgent } from "../../testing/ai/declarative-agent.fixture";
import { driveAgent, fakeTools } from "../../testing/ai/drive-agent.fixture";
import type { StreamCutting, WireReplyScript } from "../../testing/ai/reply-script.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import { lisbon, weatherToolsWith } from "../../testing/ai/weather-tools.fixture";

// The shipped nodes/shared/anthropic-messages(.yaml, -stream.yaml) protocols, driven through the
// declarative interpreter and the platform's turn loop against an Anthropic-shaped server.

const servers = serversClosedAfterEach();

const placeSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const forecastSchema = { type: "object", properties: { latitude: { type: "number" }, longitude: { type: "number" } }, required: ["latitude", "longitude"] };
const weatherTools = () => weatherToolsWith({ place: placeSchema, forecast: forecastSchema });

function anthropicAgent(script: WireReplyScript, options: { streamed?: boolean; cutting?: StreamCutting } = {}) {
  return declarativeAgent({ vendor: "anthropic", script, ...options, servers });
}

/** The last message's tool_result blocks, as the model would read them. */
function lastResults(body: { messages: Array<{ role: string; content: Array<{ type: string; content: string }> }> }) {
  return body.messages.at(-1)!.content;
}

describe("anthropic-messages protocol (declarative) against an Anthropic Messages server", () => {
  it("runs a two-tool chain: tools offered, the assistant turn resent, results in one user message, instructions in system, usage summed", async () => {
    const { server, protocol, config, systemPrompt } = await anthropicAgent([
      { text: "Let me check.", toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }], usage: { input: 100, output: 10 } },
      (request) => ({ toolCalls: [{ name: "getForecast", arguments: JSON.parse(lastResults(request.body)[0].content) }], usage: { input: 150, output: 12 } }),
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
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(Array(3).fill("POST /v1/messages"));
    expect(server.requests[0].headers).toMatchObject({ "x-api-key": "test-key", "anthropic-version": "2023-06-01" });
    expect(server.requests[0].body).toEqual({
      model: "fixture-model",
      max_tokens: 4096,
      system: `${systemPrompt}\n\nAlways call findPlace first.`,
      messages: [{ role: "user", content: "Weather in Lisbon?" }],
      tools: [
        { name: "findPlace", description: "Find a place by name; returns its coordinates.", input_schema: placeSchema },
        { name: "getForecast", description: "Forecast the weather at coordinates.", input_schema: forecastSchema },
      ],
      tool_choice: { type: "auto" },
    });
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      { role: "assistant", content: [{ type: "text", text: "Let me check." }, { type: "tool_use", id: "toolu_1_1", name: "findPlace", input: { name: "Lisbon" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1_1", content: JSON.stringify(lisbon), is_error: false }] },
    ]);
    expect(server.requests[2].body.messages.slice(3)).toEqual([
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_2_1", name: "getForecast", input: lisbon }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2_1", content: "sunny, 24°C at 38.72,-9.14", is_error: false }] },
    ]);
    expect(server.requests[2].body.tools).toEqual(server.requests[0].body.tools);
  });

  it("sends every result of a turn in ONE user message, a failed call marked is_error", async () => {
    const { server, protocol, config } = await anthropicAgent([
      { toolCalls: [{ name: "findPlace", arguments: { name: "Atlantis" } }, { name: "findPlace", arguments: { name: "Lisbon" } }] },
      { text: "Lisbon exists; Atlantis does not." },
    ]);
    const { tools } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Where are Atlantis and Lisbon?" } });
    expect(result).toMatchObject({ status: "completed", turns: 2, toolCalls: 2 });
    const messages = server.requests[1].body.messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_1_1", name: "findPlace", input: { name: "Atlantis" } },
        { type: "tool_use", id: "toolu_1_2", name: "findPlace", input: { name: "Lisbon" } },
      ],
    });
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1_1", content: "No place called Atlantis", is_error: true },
        { type: "tool_result", tool_use_id: "toolu_1_2", content: JSON.stringify(lisbon), is_error: false },
      ],
    });
  });

  it("lets no tool be called on the last turn: the tools stay declared, as Anthropic needs for the tool history, with tool_choice none", async () => {
    const { server, protocol, config } = await anthropicAgent([{ toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }] }, { text: "Lisbon is at 38.72, -9.14." }]);
    const { tools } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Where is Lisbon?" }, maxTurns: 2 });
    expect(result).toMatchObject({ status: "max_turns", text: "Lisbon is at 38.72, -9.14.", turns: 2 });
    expect(server.requests[1].body.tools).toEqual(server.requests[0].body.tools);
    expect(server.requests[1].body.tool_choice).toEqual({ type: "none" });
  });

  it("with maxTurns 1 sends one request with no tools", async () => {
    const { server, protocol, config } = await anthropicAgent([{ text: "One pass." }]);
    const { tools, ran } = weatherTools();
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "Hi" }, maxTurns: 1 });
    expect(result).toMatchObject({ status: "completed", text: "One pass.", turns: 1 });
    expect(server.requests).toHaveLength(1);
    expect(Object.keys(server.requests[0].body).sort()).toEqual(["max_tokens", "messages", "model", "system"]);
    expect(ran).toEqual([]);
  });
});

describe("anthropic-messages-stream protocol (declarative) against streamed Messages", () => {
  it("merges input_json_delta fragments per block (two tool_use blocks), joins text_delta pieces, reads usage from message_start and message_delta", async () => {
    const { server, protocol, config } = await anthropicAgent(
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

    expect(server.requests[0].body).toMatchObject({ stream: true, tool_choice: { type: "auto" } });
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["findPlace", { name: "Lisbon" }],
      ["getForecast", lisbon],
    ]);
    expect(result).toMatchObject({ status: "completed", text: "Sunny and 24°C in Lisbon.", turns: 2, toolCalls: 2 });
    expect(result.usage).toEqual({ inputTokens: 280, outputTokens: 39 });
    expect(server.requests[1].body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look that up." },
          { type: "tool_use", id: "toolu_1_1", name: "findPlace", input: { name: "Lisbon" } },
          { type: "tool_use", id: "toolu_1_2", name: "getForecast", input: lisbon },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1_1", content: JSON.stringify(lisbon), is_error: false },
          { type: "tool_result", tool_use_id: "toolu_1_2", content: "sunny, 24°C at 38.72,-9.14", is_error: false },
        ],
      },
    ]);
  });

  it("a tool_use with no input (an empty object) still becomes a call with {} arguments", async () => {
    const { protocol, config } = await anthropicAgent([{ toolCalls: [{ name: "listAll", arguments: {} }] }, { text: "Listed." }], { streamed: true });
    const { tools, ran } = fakeTools({ listAll: { answer: () => ({ output: "[]" }) } });
    const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: "List everything." } });
    expect(ran).toEqual([expect.objectContaining({ name: "listAll", args: {} })]);
    expect(result).toMatchObject({ status: "completed", text: "Listed." });
  });
});
