import type { ServerResponse } from "node:http";
import { argumentText, cut, defaultUsage, scriptedReply, type ScriptedWireReply, type StreamCutting, textPieces, type WireReplyScript, wholeText } from "./reply-script.fixture";
import { sendEvents, sendJson, startWireServer, type WireRequest, type WireServer } from "./wire-server.fixture";

/**
 * TEST DOUBLE: a model server speaking the OpenAI chat-completions wire
 * format on 127.0.0.1 (POST …/chat/completions), playing `script` one turn
 * per request and recording every request body. A request with
 * `stream: true` is answered with server-sent events as OpenAI sends them:
 * `data: {chunk}` frames whose `choices[0].delta` carries the text in
 * pieces and each tool call as fragments (`tool_calls[i]` with index, then
 * id, type and name once, then the argument text cut in several pieces),
 * a usage chunk with empty `choices` when `stream_options.include_usage`
 * asked for it, and `data: [DONE]`.
 */
export async function startOpenAIChatServer(script: WireReplyScript, cutting: StreamCutting = {}): Promise<WireServer> {
  let turn = 0;
  return startWireServer((request, response) => {
    if (request.method !== "POST" || !request.path.endsWith("/chat/completions")) {
      return sendJson(response, 404, { error: { message: `no route for ${request.method} ${request.path}`, type: "invalid_request_error" } });
    }
    const index = turn++;
    const reply = scriptedReply(script, index, request);
    if (request.body?.stream === true) return streamReply(response, request, reply, index, cutting);
    sendJson(response, 200, completion(request, reply, index));
  });
}

function callId(reply: ScriptedWireReply, turn: number, position: number): string {
  return reply.toolCalls?.[position].id ?? `call_${turn + 1}_${position + 1}`;
}

function completion(request: WireRequest, reply: ScriptedWireReply, turn: number) {
  const calls = reply.toolCalls ?? [];
  const usage = reply.usage ?? defaultUsage;
  const text = wholeText(reply);
  return {
    id: `chatcmpl-${turn + 1}`,
    object: "chat.completion",
    created: 1_750_000_000 + turn,
    model: request.body?.model ?? "fixture-model",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          // OpenAI sends null, not "", when a turn is only tool calls.
          content: text === "" && calls.length ? null : text,
          refusal: null,
          ...(calls.length
            ? { tool_calls: calls.map((call, position) => ({ id: callId(reply, turn, position), type: "function", function: { name: call.name, arguments: argumentText(call) } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    system_fingerprint: "fp_fixture",
  };
}

function streamReply(response: ServerResponse, request: WireRequest, reply: ScriptedWireReply, turn: number, cutting: StreamCutting): void {
  const includeUsage = request.body?.stream_options?.include_usage === true;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: `chatcmpl-${turn + 1}`,
    object: "chat.completion.chunk",
    created: 1_750_000_000 + turn,
    model: request.body?.model ?? "fixture-model",
    system_fingerprint: "fp_fixture",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const frames: Array<{ data: unknown }> = [{ data: chunk({ role: "assistant", content: "", refusal: null }) }];
  for (const piece of textPieces(reply, cutting.textPieces)) frames.push({ data: chunk({ content: piece }) });
  (reply.toolCalls ?? []).forEach((call, index) => {
    frames.push({ data: chunk({ tool_calls: [{ index, id: callId(reply, turn, index), type: "function", function: { name: call.name, arguments: "" } }] }) });
    for (const piece of cut(argumentText(call), cutting.argumentPieces ?? 3)) {
      frames.push({ data: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }) });
    }
  });
  frames.push({ data: chunk({}, reply.toolCalls?.length ? "tool_calls" : "stop") });
  if (includeUsage) {
    const usage = reply.usage ?? defaultUsage;
    frames.push({ data: { ...chunk({}), choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } } });
  }
  frames.push({ data: "[DONE]" });
  sendEvents(response, frames);
}
