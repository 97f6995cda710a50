/**
 * An agent whose model streams its tool calls as events (a Responses-style
 * API: each call arrives whole in one `response.output_item.done` event,
 * turns chained by the id in `response.completed`), end to end through a
 * workflow run: the call rule's `when` over each event, `continuity` read
 * from the stream, `match` rows (one type, or a list) accumulated over every
 * model turn, an accumulating `from: tool` row, and a `from: complete` row
 * reading `events`. The agent type is built in a temp copy of nodes/.
 */
import { randomUUID } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEvents, startWireServer, type WireServer } from "../../testing/ai/wire-server.fixture";
import { parseWorkflow } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";

const streamAgent: Record<string, string> = {
  "interface.yaml": `name: stream-agent
title: Stream agent
description: An agent on a streamed Responses-style API that calls the tools wired to it.
category: Agents
kind: CallbackNode
inputs:
  - name: prompt
    type: string
    required: true
outputs:
  - name: stream
    type: string
  - name: reasoning
    type: string
  - name: progress
    type: string
  - name: text
    type: string
credentials:
  - name: openai
    displayName: API key
    fields: [apiKey]
    required: false
serviceConnectors:
  - name: mcpService
    serviceType: mcp
    isService: false
`,
  "config.yaml": `configSchema:
  type: object
  properties:
    baseUrl: { type: string, format: uri, default: "https://api.openai.com/v1" }
    maxTurns: { type: integer, minimum: 1, default: 4 }
`,
  "api/run.yaml": `- name: respond
  method: POST
  url: "{{ config.baseUrl }}/responses"
  transport: sse
  terminator: "[DONE]"
  credential: { scheme: bearer, token: "{{ credentials.openai.apiKey }}" }
  body:
    model: fixture-model
    input: "{{ inputs.prompt }}"
    stream: true
`,
  "api/toolExchange.yaml": `tool: "return { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters }"
toolsInto: tools
call:
  when: "return response.type === 'response.output_item.done' && response.item.type === 'function_call'"
  id: "return response.item.call_id"
  name: "return response.item.name"
  arguments: "return response.item.arguments"
result: "return { type: 'function_call_output', call_id: result.id, output: result.output }"
resultsInto: input
continuity:
  match: "return response.some((e) => e.type === 'response.completed')"
  from: "return response.filter((e) => e.type === 'response.completed').at(-1).response.id"
  into: previous_response_id
maxTurns: "{{ config.maxTurns }}"
`,
  "api/events.yaml": `- emit: stream
  match: response.output_text.delta
  value: "return response.delta"
  accumulate: true
- emit: reasoning
  match: [response.reasoning_summary_text.delta, response.reasoning_summary_part.done]
  value: "return response.type === 'response.reasoning_summary_part.done' ? '|' : response.delta"
  accumulate: true
- emit: progress
  from: tool
  value: "return 'called ' + tool.name + ' (' + tool.result.result.toFixed(1) + ');'"
  accumulate: true
- emit: text
  from: complete
  value: "return events.filter((e) => e.emit === 'stream').map((e) => e.value).at(-1) ?? ''"
`,
};

let nodesDir: string;
let server: WireServer;

beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-stream-events-"));
  nodesDir = path.join(root, "nodes");
  await cp(path.resolve("nodes"), nodesDir, { recursive: true });
  for (const [file, text] of Object.entries(streamAgent)) {
    await mkdir(path.dirname(path.join(nodesDir, "stream-agent", file)), { recursive: true });
    await writeFile(path.join(nodesDir, "stream-agent", file), text);
  }
  // TEST DOUBLE: a Responses-shaped server streaming two turns: a tool call, then the answer.
  server = await startWireServer((request, response) => {
    const chained = request.body?.previous_response_id;
    if (!chained) {
      sendEvents(response, [
        { data: { type: "response.reasoning_summary_text.delta", delta: "Convert " } },
        { data: { type: "response.reasoning_summary_text.delta", delta: "first." } },
        { data: { type: "response.reasoning_summary_part.done" } },
        { data: { type: "response.output_item.added", item: { type: "function_call", call_id: "fc_1", name: "convertUnits", arguments: "" } } },
        { data: { type: "response.function_call_arguments.delta", delta: '{"value":10,' } },
        { data: { type: "response.output_item.done", item: { type: "function_call", call_id: "fc_1", name: "convertUnits", arguments: '{"value":10,"from":"kilometre","to":"mile"}' } } },
        { data: { type: "response.completed", response: { id: "resp_1" } } },
        { data: "[DONE]" },
      ]);
      return;
    }
    sendEvents(response, [
      { data: { type: "response.reasoning_summary_text.delta", delta: "Answer." } },
      { data: { type: "response.output_text.delta", delta: "Ten km is " } },
      { data: { type: "response.output_text.delta", delta: "6.2 miles." } },
      { data: { type: "response.output_item.done", item: { type: "message", content: [] } } },
      { data: { type: "response.completed", response: { id: "resp_2" } } },
      { data: "[DONE]" },
    ]);
  });
});

afterAll(async () => {
  await server.close();
  await rm(path.dirname(nodesDir), { recursive: true, force: true });
});

describe("an agent whose model streams tool-call events", () => {
  it("finds the call in the stream, chains the turns, and puts out the streamed, tool and final rows", async () => {
    const parsed = parseWorkflow({
      version: 1,
      name: "stream",
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
        { id: "agent", type: "stream-agent", position: { x: 200, y: 0 }, config: { baseUrl: server.url } },
        { id: "tools", type: "unit-converter", position: { x: 200, y: 200 }, config: {} },
        { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
      ],
      edges: [
        { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
        { id: "e2", kind: "service", source: "tools", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
        { id: "e3", kind: "signal", source: "agent", sourceHandle: "text", target: "end", targetHandle: "result" },
      ],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const env = await createLocalEnvironment({ nodesDir, overrides: { allowedPrivateOrigins: [server.url] } });
    expect(env.catalogue.problems.filter((problem) => problem.file.includes("stream-agent"))).toEqual([]);
    const sink = new MemorySink();
    const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "10 km in miles?" }, sink, env });

    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "Ten km is 6.2 miles." } });
    expect(sink.toolCalls.map((row) => [row.tool, row.arguments, row.isError])).toEqual([["convertUnits", { value: 10, from: "kilometre", to: "mile" }, false]]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body).toMatchObject({ model: "fixture-model", input: "10 km in miles?", stream: true });
    expect(server.requests[0].body.tools.map((tool: { name: string }) => tool.name)).toContain("convertUnits");
    // The second turn chains on the first by the id in its response.completed event, and sends only the result.
    expect(server.requests[1].body.previous_response_id).toBe("resp_1");
    expect(server.requests[1].body.input).toEqual([{ type: "function_call_output", call_id: "fc_1", output: expect.stringContaining("6.21") }]);
    const agentRun = sink.nodeStarts.find((start) => start.nodeId === "agent");
    expect(sink.nodeEnds.find((end) => end.nodeRunId === agentRun?.nodeRunId)).toMatchObject({
      status: "completed",
      outputs: { stream: "Ten km is 6.2 miles.", reasoning: "Convert first.|Answer.", text: "Ten km is 6.2 miles." },
      turns: 2,
    });
  });
});
