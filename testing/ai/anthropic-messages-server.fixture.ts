import type { ServerResponse } from "node:http";
import { argumentText, cut, defaultUsage, scriptedReply, type ScriptedWireReply, type StreamCutting, textPieces, type WireReplyScript, wholeText } from "./reply-script.fixture";
import { sendEvents, sendJson, startWireServer, type WireRequest, type WireServer } from "./wire-server.fixture";

/**
 * TEST DOUBLE: a model server speaking the Anthropic Messages wire format
 * on 127.0.0.1 (POST …/messages), playing `script` one turn per request and
 * recording every request body. A request with `stream: true` is answered
 * with the named server-sent events Anthropic sends: message_start (input
 * tokens), a ping, then per content block content_block_start,
 * content_block_delta (text_delta pieces, or input_json_delta pieces of a
 * tool_use's input) and content_block_stop, then message_delta (stop reason,
 * output tokens) and message_stop.
 */
export async function startAnthropicMessagesServer(script: WireReplyScript, cutting: StreamCutting = {}): Promise<WireServer> {
  let turn = 0;
  return startWireServer((request, response) => {
    if (request.method !== "POST" || !request.path.endsWith("/messages")) {
      return sendJson(response, 404, { type: "error", error: { type: "not_found_error", message: `no route for ${request.method} ${request.path}` } });
    }
    const index = turn++;
    const reply = scriptedReply(script, index, request);
    if (request.body?.stream === true) return streamReply(response, request, reply, index, cutting);
    sendJson(response, 200, { ...message(request, reply, index), content: content(reply, index) });
  });
}

function toolUseId(reply: ScriptedWireReply, turn: number, position: number): string {
  return reply.toolCalls?.[position].id ?? `toolu_${turn + 1}_${position + 1}`;
}

function message(request: WireRequest, reply: ScriptedWireReply, turn: number, streamed = false) {
  const usage = reply.usage ?? defaultUsage;
  return {
    id: `msg_${turn + 1}`,
    type: "message",
    role: "assistant",
    model: request.body?.model ?? "fixture-model",
    content: [] as unknown[],
    stop_reason: streamed ? null : reply.toolCalls?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: streamed ? 1 : usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function content(reply: ScriptedWireReply, turn: number): unknown[] {
  const text = wholeText(reply);
  return [
    ...(text ? [{ type: "text", text }] : []),
    ...(reply.toolCalls ?? []).map((call, position) => ({ type: "tool_use", id: toolUseId(reply, turn, position), name: call.name, input: JSON.parse(argumentText(call)) })),
  ];
}

function streamReply(response: ServerResponse, request: WireRequest, reply: ScriptedWireReply, turn: number, cutting: StreamCutting): void {
  const frames: Array<{ event: string; data: unknown }> = [];
  const send = (type: string, data: Record<string, unknown> = {}) => frames.push({ event: type, data: { type, ...data } });
  send("message_start", { message: message(request, reply, turn, true) });
  send("ping");
  let index = 0;
  const pieces = textPieces(reply, cutting.textPieces);
  if (pieces.length) {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const text of pieces) send("content_block_delta", { index, delta: { type: "text_delta", text } });
    send("content_block_stop", { index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, position) => {
    send("content_block_start", { index, content_block: { type: "tool_use", id: toolUseId(reply, turn, position), name: call.name, input: {} } });
    send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    // A tool_use with no input streams only that empty fragment, as Anthropic does.
    const json = argumentText(call);
    for (const piece of json === "{}" ? [] : cut(json, cutting.argumentPieces ?? 3)) send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    send("content_block_stop", { index });
    index++;
  });
  send("message_delta", { delta: { stop_reason: reply.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: (reply.usage ?? defaultUsage).output } });
  send("message_stop");
  sendEvents(response, frames);
}
