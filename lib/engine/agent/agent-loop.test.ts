import { describe, expect, it } from "vitest";
import { scriptedModel, type ScriptedTurn } from "../../../testing/ai/scripted-model.fixture";
import type { AgentTool, CallMeta } from "../../tools/agent-tool";
import { type AgentLoopOptions, type PlatformCall, runAgentLoop } from "./agent-loop";

/** TEST DOUBLE: tools that answer from a function and log every call they run. */
function fakeTools(answers: Record<string, (args: Record<string, unknown>) => { output: string; isError?: boolean }>) {
  const ran: Array<{ name: string; args: unknown; meta: CallMeta }> = [];
  const tools: AgentTool[] = Object.entries(answers).map(([name, answer]) => ({
    name,
    server: "fake",
    description: `The ${name} tool.`,
    inputSchema: { type: "object", properties: {}, additionalProperties: true },
    call: async (args, meta) => {
      ran.push({ name, args, meta });
      const result = answer(args as Record<string, unknown>);
      return { output: result.output, isError: result.isError ?? false };
    },
  }));
  return { tools, ran };
}

async function run(script: Array<ScriptedTurn | ((request: never) => ScriptedTurn)>, tools: AgentTool[], options: { maxTurns?: number; stuckAfterRepeats?: number; discoveryThreshold?: number; rank?: (query: string, limit: number) => AgentTool[]; onToolResult?: AgentLoopOptions["onToolResult"] } = {}) {
  const model = scriptedModel(script as never);
  const platform: PlatformCall[] = [];
  const result = await runAgentLoop({
    conversation: await model.start({ instructions: "", config: {}, inputs: {} }),
    tools,
    maxTurns: options.maxTurns ?? 10,
    stuckAfterRepeats: options.stuckAfterRepeats ?? 3,
    nodeRunId: "node-run-1",
    callerNodeId: "agent",
    discoveryThreshold: options.discoveryThreshold,
    rank: options.rank,
    onToolResult: options.onToolResult,
    recordPlatformCall: (call) => {
      platform.push(call);
    },
  });
  return { result, requests: model.requests, platform };
}

describe("runAgentLoop", () => {
  it("chains two tools: the second call uses the first result", async () => {
    const { tools, ran } = fakeTools({
      findPlace: () => ({ output: JSON.stringify({ latitude: 38.7, longitude: -9.1 }) }),
      getForecast: (args) => ({ output: `sunny at ${args.latitude},${args.longitude}` }),
    });
    const { result, requests } = await run(
      [
        { toolCalls: [{ name: "findPlace", arguments: { name: "Lisbon" } }] },
        (request: { results: Array<{ output: string }> }) => ({ toolCalls: [{ name: "getForecast", arguments: JSON.parse(request.results[0].output) }] }),
        (request: { results: Array<{ output: string }> }) => ({ text: `Forecast: ${request.results[0].output}` }),
      ],
      tools,
    );
    expect(ran.map((call) => call.name)).toEqual(["findPlace", "getForecast"]);
    expect(ran[1].args).toEqual({ latitude: 38.7, longitude: -9.1 });
    expect(ran[0].meta).toMatchObject({ nodeRunId: "node-run-1", callerNodeId: "agent" });
    expect(result).toMatchObject({ status: "completed", text: "Forecast: sunny at 38.7,-9.1", turns: 3, toolCalls: 2 });
    expect(requests[0].tools).toEqual(["findPlace", "getForecast"]);
  });

  it("hands an isError result back to the model, which recovers", async () => {
    const { tools } = fakeTools({ readIssue: (args) => (args.number === 1 ? { output: "No issue #1", isError: true } : { output: "issue 2: it works" }) });
    const { result, requests } = await run(
      [
        { toolCalls: [{ name: "readIssue", arguments: { number: 1 } }] },
        (request: { results: Array<{ isError: boolean }> }) => (request.results[0].isError ? { toolCalls: [{ name: "readIssue", arguments: { number: 2 } }] } : { text: "unexpected" }),
        { text: "Read issue 2." },
      ],
      tools,
    );
    expect(requests[1].results[0]).toMatchObject({ isError: true, output: "No issue #1" });
    expect(result.status).toBe("completed");
  });

  it("with maxTurns 1 offers no tool and makes no tool call", async () => {
    const { tools, ran } = fakeTools({ search: () => ({ output: "x" }) });
    const { result, requests } = await run([{ text: "One pass." }], tools, { maxTurns: 1 });
    expect(requests[0].tools).toEqual([]);
    expect(ran).toEqual([]);
    expect(result).toMatchObject({ status: "completed", turns: 1, text: "One pass." });
  });

  it("withholds tools on the last turn and ends as max_turns when the model still wanted more", async () => {
    const { tools, ran } = fakeTools({ a: () => ({ output: "1" }), b: () => ({ output: "2" }) });
    const { result, requests } = await run([{ toolCalls: [{ name: "a", arguments: {} }] }, { toolCalls: [{ name: "b", arguments: {} }] }, { text: "Out of turns." }], tools, { maxTurns: 3 });
    expect(requests.map((request) => request.tools.length)).toEqual([2, 2, 0]);
    expect(ran.map((call) => call.name)).toEqual(["a", "b"]);
    expect(result).toMatchObject({ status: "max_turns", text: "Out of turns.", turns: 3 });
  });

  it("refuses the Nth identical call without running it, then stops as stuck on the next repeat", async () => {
    const { tools, ran } = fakeTools({ search: () => ({ output: "nothing" }) });
    const same = { toolCalls: [{ name: "search", arguments: { q: "x", page: 1 } }] };
    const reordered = { toolCalls: [{ name: "search", arguments: { page: 1, q: "x" } }] };
    const { result, requests, platform } = await run([same, reordered, same, reordered, { text: "never reached" }], tools, { stuckAfterRepeats: 3 });
    expect(ran).toHaveLength(2); // the 3rd and 4th identical calls never ran
    expect(requests[3].results[0]).toMatchObject({ isError: true });
    expect(requests[3].results[0].output).toMatch(/Not run: this would be call number 3 to fake\/search/);
    expect(result.status).toBe("stuck");
    expect(result.turns).toBe(4);
    expect(platform).toHaveLength(2); // the refused calls are traced by the platform
  });

  it("catches an A↔B ping-pong", async () => {
    const { tools, ran } = fakeTools({ ping: () => ({ output: "pong?" }), pong: () => ({ output: "ping?" }) });
    const a = { toolCalls: [{ name: "ping", arguments: {} }] };
    const b = { toolCalls: [{ name: "pong", arguments: {} }] };
    const { result } = await run([a, b, a, b, a, b, a, b], tools, { stuckAfterRepeats: 3 });
    expect(ran).toHaveLength(4);
    expect(result.status).toBe("stuck");
  });

  it("counts calls that keep returning the same result as repeats", async () => {
    const { tools, ran } = fakeTools({ search: () => ({ output: "[]" }) });
    const { result, requests } = await run(
      [1, 2, 3, 4, 5].map((page) => ({ toolCalls: [{ name: "search", arguments: { q: `try ${page}` } }] })),
      tools,
      { stuckAfterRepeats: 3 },
    );
    expect(requests[3].results[0].output).toMatch(/returned this same result 3 times/);
    expect(ran).toHaveLength(4);
    expect(result.status).toBe("stuck");
  });

  it("answers an unknown tool and unparsable arguments with errors the model can act on", async () => {
    const { tools } = fakeTools({ real: () => ({ output: "ok" }) });
    const { requests, platform } = await run([{ toolCalls: [{ name: "imaginary", arguments: {} }, { name: "real", arguments: "{not json" }] }, { text: "ok" }], tools);
    expect(requests[1].results.map((item) => item.isError)).toEqual([true, true]);
    expect(requests[1].results[0].output).toMatch(/no tool named 'imaginary'/);
    expect(platform).toHaveLength(2);
  });

  it("with no tools wired makes one plain request", async () => {
    const { result, requests } = await run([{ text: "Just an answer." }], []);
    expect(requests).toHaveLength(1);
    expect(requests[0].tools).toEqual([]);
    expect(result.status).toBe("completed");
  });

  it("switches to search_tools and call_tool above the token threshold, and keeps that list", async () => {
    const answers = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`tool${index}`, () => ({ output: `answer ${index}` })]));
    const { tools, ran } = fakeTools(answers);
    const rank = (query: string, limit: number) => tools.filter((tool) => tool.name === query).slice(0, limit);
    const answered: string[] = [];
    const { result, requests } = await run(
      [
        { toolCalls: [{ name: "search_tools", arguments: { query: "tool42" } }] },
        (request: { results: Array<{ output: string }> }) => ({ toolCalls: [{ name: "call_tool", arguments: { name: JSON.parse(request.results[0].output)[0].name, arguments: {} } }] }),
        { text: "done" },
      ],
      tools,
      { rank, onToolResult: (event) => void answered.push(event.tool.name) },
    );
    // search_tools is the platform's own answer; call_tool reports the tool it called.
    expect(answered).toEqual(["tool42"]);
    expect(result.discovery).toBe(true);
    expect(requests[0].tools).toEqual(["search_tools", "call_tool"]);
    expect(requests[1].tools).toEqual(["search_tools", "call_tool"]);
    expect(ran.map((call) => call.name)).toEqual(["tool42"]);
  });

  it("offers every tool directly below the threshold", async () => {
    const { tools } = fakeTools(Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`tool${index}`, () => ({ output: "x" })])));
    const { result, requests } = await run([{ text: "ok" }], tools);
    expect(result.discovery).toBe(false);
    expect(requests[0].tools).toHaveLength(5);
  });

  it("calls onToolResult after each call a tool answered, with the tool's own answer", async () => {
    const { tools } = fakeTools({ findPlace: () => ({ output: '{"city":"Lisbon"}' }), broken: () => ({ output: "the API is down", isError: true }) });
    const seen: unknown[][] = [];
    const same = { name: "findPlace", arguments: { name: "Lisbon" } };
    const script = [
      { toolCalls: [same, { name: "noSuchTool", arguments: {} }, { name: "broken", arguments: {} }] },
      { toolCalls: [same] },
      { toolCalls: [same] },
      { text: "done" },
    ];
    const { result, platform } = await run(script, tools, {
      onToolResult: (event) => {
        seen.push([event.tool.name, event.tool.server, event.arguments, event.outcome.output, event.outcome.isError]);
      },
    });
    expect(result.status).toBe("completed");
    // The unknown tool and the refused third repeat are the platform's answers: no hook.
    expect(platform.map((call) => call.tool)).toEqual(["noSuchTool", "findPlace"]);
    expect(seen).toEqual([
      ["findPlace", "fake", { name: "Lisbon" }, '{"city":"Lisbon"}', false],
      ["broken", "fake", {}, "the API is down", true],
      ["findPlace", "fake", { name: "Lisbon" }, '{"city":"Lisbon"}', false],
    ]);
  });

  it("awaits onToolResult before the model's next turn, and ends as failed when it throws", async () => {
    const { tools } = fakeTools({ findPlace: () => ({ output: "{}" }) });
    const order: string[] = [];
    const { result, requests } = await run(
      [
        () => (order.push("turn 1"), { toolCalls: [{ name: "findPlace", arguments: { name: "a" } }] }),
        () => (order.push("turn 2"), { toolCalls: [{ name: "findPlace", arguments: { name: "b" } }] }),
        { text: "not reached" },
      ],
      tools,
      {
        onToolResult: async (event) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(`hook ${String((event.arguments as { name: string }).name)}`);
          if ((event.arguments as { name: string }).name === "b") throw new Error("output 'progress' could not be computed");
        },
      },
    );
    expect(order).toEqual(["turn 1", "hook a", "turn 2", "hook b"]);
    expect(result).toMatchObject({ status: "failed", turns: 2, error: "output 'progress' could not be computed" });
    expect(requests).toHaveLength(2);
  });

  it("ends as failed with the model's error", async () => {
    const model = scriptedModel([]);
    const conversation = await model.start({ instructions: "", config: {}, inputs: {} });
    const failing = { ...conversation, turn: async () => { throw new Error("the model API answered 401: bad key"); } };
    const result = await runAgentLoop({ conversation: failing, tools: [], maxTurns: 3, stuckAfterRepeats: 3, nodeRunId: "n", callerNodeId: "a", recordPlatformCall: () => {} });
    expect(result).toMatchObject({ status: "failed", error: "the model API answered 401: bad key" });
  });

  it("runs at most 20 calls of one turn and answers the rest as not run, each with its trace row", async () => {
    const { tools, ran } = fakeTools({ echo: (args) => ({ output: String(args.n) }) });
    const calls = Array.from({ length: 25 }, (_, n) => ({ name: "echo", arguments: { n } }));
    const { result, requests, platform } = await run([{ toolCalls: calls }, { text: "done" }], tools);
    expect(ran).toHaveLength(20);
    expect(requests[1].results).toHaveLength(25);
    expect(requests[1].results.slice(20).every((answer) => answer.isError && /at most 20 tool calls/.test(answer.output))).toBe(true);
    expect(platform).toHaveLength(5);
    expect(result.toolCalls).toBe(25);
  });
});
