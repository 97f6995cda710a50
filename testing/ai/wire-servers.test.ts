import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicMessagesServer } from "./anthropic-messages-server.fixture";
import { startOpenAIChatServer } from "./openai-chat-server.fixture";
import type { WireServer } from "./wire-server.fixture";

// The wire-format test doubles themselves: what they put on the wire, frame by frame.

const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function post(url: string, body: unknown): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

const turn = { text: "Hi there", toolCalls: [{ name: "a", arguments: { q: "lisbon" } }, { name: "b", arguments: { n: 1 } }], usage: { input: 9, output: 4 } };

describe("startOpenAIChatServer", () => {
  it("streams `data: {chunk}` frames: text in pieces, each call's fragments by index, a usage chunk, then [DONE]", async () => {
    const server = await startOpenAIChatServer([turn]);
    servers.push(server);
    const reply = await post(`${server.url}/v1/chat/completions`, { model: "m", stream: true, stream_options: { include_usage: true } });
    expect(reply.type).toBe("text/event-stream");
    const frames = reply.text.split("\n\n").filter(Boolean);
    expect(frames.every((frame) => frame.startsWith("data: ") && !frame.includes("\n"))).toBe(true);
    expect(frames.at(-1)).toBe("data: [DONE]");
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice(6)));
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    const deltas = chunks.filter((chunk) => chunk.choices.length).map((chunk) => chunk.choices[0].delta);
    expect(deltas.filter((delta) => delta.content).map((delta) => delta.content)).toEqual(["Hi ", "the", "re"]);
    const fragments = deltas.flatMap((delta) => delta.tool_calls ?? []);
    expect(fragments.filter((fragment) => fragment.index === 0).map((fragment) => fragment.function.arguments).join("")).toBe('{"q":"lisbon"}');
    expect(fragments.filter((fragment) => fragment.index === 1).length).toBe(4); // the head (id, name) and three argument pieces
    expect(fragments.filter((fragment) => fragment.id).map((fragment) => [fragment.index, fragment.id, fragment.function.name])).toEqual([
      [0, "call_1_1", "a"],
      [1, "call_1_2", "b"],
    ]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("answers plain JSON with content null on a tool-call turn, records the body, and refuses a turn past the script", async () => {
    const server = await startOpenAIChatServer([{ toolCalls: [{ name: "a", arguments: "{broken" }] }]);
    servers.push(server);
    const reply = await post(`${server.url}/v1/chat/completions`, { model: "m", messages: [] });
    expect(JSON.parse(reply.text).choices[0]).toMatchObject({ message: { content: null, tool_calls: [{ function: { name: "a", arguments: "{broken" } }] }, finish_reason: "tool_calls" });
    expect(server.requests[0].body).toEqual({ model: "m", messages: [] });
    const past = await post(`${server.url}/v1/chat/completions`, {});
    expect(past.status).toBe(400);
    expect(past.text).toMatch(/script has no turn 2/);
  });
});

describe("startAnthropicMessagesServer", () => {
  it("streams named events in Anthropic's order with text_delta and input_json_delta pieces", async () => {
    const server = await startAnthropicMessagesServer([turn]);
    servers.push(server);
    const reply = await post(`${server.url}/v1/messages`, { model: "m", stream: true });
    const frames = reply.text.split("\n\n").filter(Boolean).map((frame) => {
      const [eventLine, dataLine] = frame.split("\n");
      const data = JSON.parse(dataLine.slice(6));
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
    const kind = (frame: { type: string; delta?: { type: string } }) => (frame.delta?.type && frame.type === "content_block_delta" ? frame.delta.type : frame.type);
    expect(frames.map(kind)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "content_block_stop",
      "content_block_start",
      "input_json_delta",
      "input_json_delta",
      "input_json_delta",
      "input_json_delta",
      "content_block_stop",
      "content_block_start",
      "input_json_delta",
      "input_json_delta",
      "input_json_delta",
      "input_json_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(frames[0].message.usage.input_tokens).toBe(9);
    expect(frames[7].content_block).toEqual({ type: "tool_use", id: "toolu_1_1", name: "a", input: {} });
    expect(frames.slice(8, 12).map((frame) => frame.delta.partial_json).join("")).toBe('{"q":"lisbon"}');
    expect(frames.at(-2)).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { output_tokens: 4 } });
  });

  it("answers plain JSON with text and tool_use blocks", async () => {
    const server = await startAnthropicMessagesServer([turn]);
    servers.push(server);
    const reply = JSON.parse((await post(`${server.url}/v1/messages`, { model: "m" })).text);
    expect(reply).toMatchObject({
      type: "message",
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Hi there" },
        { type: "tool_use", id: "toolu_1_1", name: "a", input: { q: "lisbon" } },
        { type: "tool_use", id: "toolu_1_2", name: "b", input: { n: 1 } },
      ],
      usage: { input_tokens: 9, output_tokens: 4 },
    });
  });
});
