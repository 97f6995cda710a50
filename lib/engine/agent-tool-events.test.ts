/**
 * An agent's `from: tool` rows end to end: after each call a tool answers,
 * the row's value goes out at once and the node wired to it runs while the
 * agent is still working. The agent type is built in a temp copy of nodes/.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelProtocol } from "../ai/model";
import { scriptedModel, type ScriptedRequest, type ScriptedTurn } from "../../testing/ai/scripted-model.fixture";
import { parseWorkflow } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import type { NodeEndEvent, NodeStartEvent, ToolCallRow } from "../trace/run-events";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";
import { progressWorkflow, writeProgressAgentNodes } from "../../testing/engine/progress-agent.fixture";

let nodes: Awaited<ReturnType<typeof writeProgressAgentNodes>>;
let nodesDir: string;
let webhook: Server;
let webhookUrl: string;
/** Every body the webhook received, in order. */
let received: unknown[] = [];

beforeAll(async () => {
  nodes = await writeProgressAgentNodes();
  nodesDir = nodes.nodesDir;
  // TEST DOUBLE: a webhook on 127.0.0.1 that keeps every JSON body it is sent.
  webhook = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push(JSON.parse(body));
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
});

beforeEach(() => {
  received = [];
});

afterAll(async () => {
  webhook.closeAllConnections();
  await new Promise((resolve) => webhook.close(resolve));
  await nodes.remove();
});

/** A sink that also keeps one ordered log across node starts, tool calls and node ends. */
class OrderedSink extends MemorySink {
  log: string[] = [];
  override nodeStart(event: NodeStartEvent): void {
    super.nodeStart(event);
    this.log.push(`start ${event.nodeId}`);
  }
  override toolCall(row: ToolCallRow): void {
    super.toolCall(row);
    this.log.push(`call ${row.tool}`);
  }
  override nodeEnd(event: NodeEndEvent): void {
    super.nodeEnd(event);
    this.log.push(`end ${this.nodeStarts.find((start) => start.nodeRunId === event.nodeRunId)?.nodeId}`);
  }
}

/**
 * TEST DOUBLE: the scripted model, except that before turn N (1-based) it
 * waits until `webhookBodies[N - 1]` bodies have reached the webhook, so a
 * turn can only come once the wired step ran. It gives up after 5 s, and
 * the agent then fails, so a delivery that waits for the agent's end fails
 * the test instead of hanging it.
 */
function waitingModel(script: ScriptedTurn[], webhookBodies: number[]): ModelProtocol & { requests: ScriptedRequest[] } {
  const inner = scriptedModel(script);
  return {
    ...inner,
    async start(input) {
      const conversation = await inner.start(input);
      let turn = 0;
      return {
        addResults: (reply, results) => conversation.addResults(reply, results),
        async turn(tools, signal) {
          const wanted = webhookBodies[turn++] ?? 0;
          const deadline = Date.now() + 5000;
          while (received.length < wanted) {
            if (Date.now() > deadline) throw new Error(`turn ${turn}: the webhook got ${received.length} of ${wanted} bodies while the agent was still running`);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return conversation.turn(tools, signal);
        },
      };
    },
  };
}

async function run(script: ScriptedTurn[], webhookBodies: number[]) {
  const parsed = parseWorkflow(progressWorkflow(webhookUrl));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const model = waitingModel(script, webhookBodies);
  const env = await createLocalEnvironment({ nodesDir, overrides: { models: () => model, allowedPrivateOrigins: [webhookUrl] } });
  expect(env.catalogue.problems.filter((problem) => problem.file.includes("progress-agent"))).toEqual([]);
  const sink = new OrderedSink();
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: { question: "Marathon and 10k in other units?" }, sink, env });
  return { outcome, sink };
}

const convert = (value: number, from: string, to: string) => ({ toolCalls: [{ name: "convertUnits", arguments: { value, from, to } }] });

describe("an agent's `from: tool` rows", () => {
  it("put a value out after each tool call, and the wired step runs while the agent keeps working", async () => {
    const { outcome, sink } = await run([convert(26.2, "mile", "kilometre"), convert(10, "kilometre", "mile"), { text: "done" }], [0, 1, 2]);
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: "done" } });
    const asked = "Marathon and 10k in other units?";
    expect(received).toEqual([
      { server: "tools", from: "mile", to: "kilometre", result: 42.1648128, asked },
      { server: "tools", from: "kilometre", to: "mile", result: expect.closeTo(6.2137, 4), asked },
    ]);
    expect(sink.nodeStarts.filter((start) => start.nodeId === "webhook").map((start) => start.inputs)).toEqual(received.map((body) => ({ body })));
    // Each webhook run starts right after the call that fed it, and before the agent ends.
    const at = (entry: string, nth = 0) => sink.log.flatMap((line, index) => (line === entry ? [index] : []))[nth] ?? -1;
    expect(at("call convertUnits", 0)).toBeLessThan(at("start webhook", 0));
    expect(at("start webhook", 0)).toBeLessThan(at("call convertUnits", 1));
    expect(at("call convertUnits", 1)).toBeLessThan(at("start webhook", 1));
    expect(at("start webhook", 1)).toBeLessThan(at("end agent"));
    expect(at("end agent")).toBeLessThan(at("start end"));
    // The agent's own end carries only its `from: complete` outputs.
    const agentRun = sink.nodeStarts.find((start) => start.nodeId === "agent");
    expect(sink.nodeEnds.find((end) => end.nodeRunId === agentRun?.nodeRunId)).toMatchObject({ status: "completed", outputs: { answer: "done" }, turns: 3 });
    expect(sink.nodeEnds.filter((end) => end.status !== "completed")).toEqual([]);
  });

  it("put nothing out for a call whose `when` is false: another tool, or a tool's error", async () => {
    const { outcome, sink } = await run(
      [{ toolCalls: [{ name: "listUnits", arguments: { dimension: "length" } }] }, convert(1, "kilogram", "metre"), convert(5, "kilometre", "metre"), { text: "done" }],
      [0, 0, 0, 1],
    );
    expect(outcome.status).toBe("completed");
    expect(sink.toolCalls.map((row) => [row.tool, row.isError])).toEqual([
      ["listUnits", false],
      ["convertUnits", true],
      ["convertUnits", false],
    ]);
    expect(received).toEqual([{ server: "tools", from: "kilometre", to: "metre", result: 5000, asked: "Marathon and 10k in other units?" }]);
    expect(sink.nodeStarts.filter((start) => start.nodeId === "webhook")).toHaveLength(1);
  });
});
