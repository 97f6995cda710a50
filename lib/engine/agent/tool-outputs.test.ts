import { beforeAll, describe, expect, it } from "vitest";
import type { EventsManifest } from "../../manifest/schemas";
import { type Evaluator, sharedSandbox } from "../../sandbox";
import type { AgentTool } from "../../tools/agent-tool";
import type { ToolResultEvent } from "./agent-loop";
import { hasToolRows, toolOutputs } from "./tool-outputs";

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});

const convert: AgentTool = { name: "convertUnits", server: "tools", description: "", inputSchema: {}, call: async () => ({ output: "", isError: false }) };
const answered = (output: string, isError = false): ToolResultEvent => ({ tool: convert, arguments: { value: 26.2, from: "mile", to: "kilometre" }, outcome: { output, isError } });
const scope = { config: { unit: "km" }, inputs: { prompt: "How far?" } };

const events: EventsManifest = [
  { emit: "progress", from: "tool", when: "return !tool.isError", value: "return { tool: tool.name, server: tool.server, from: tool.arguments.from, km: tool.result.result, unit: config.unit, asked: inputs.prompt }" },
  { emit: "raw", from: "tool" },
  { emit: "answer", from: "complete", value: "{{ text }}" },
];

describe("toolOutputs", () => {
  it("puts out each `from: tool` row over the call, its parsed result, config and inputs", async () => {
    expect(await toolOutputs(events, scope, answered('{"result":42.1648128}'), evaluator)).toEqual({
      progress: { tool: "convertUnits", server: "tools", from: "mile", km: 42.1648128, unit: "km", asked: "How far?" },
      raw: { result: 42.1648128 },
    });
  });

  it("keeps a result that is not JSON as its text, and skips a row whose `when` is false", async () => {
    expect(await toolOutputs(events, scope, answered("Cannot convert between different dimensions", true), evaluator)).toEqual({ raw: "Cannot convert between different dimensions" });
  });

  it("names the output and the tool when a row cannot be computed", async () => {
    const broken: EventsManifest = [{ emit: "progress", from: "tool", value: "return tool.result.missing.deeper" }];
    await expect(toolOutputs(broken, scope, answered("{}"), evaluator)).rejects.toThrow(/output 'progress' could not be computed after the call to convertUnits/);
  });

  it("an accumulating row puts out the values of every call so far, joined when they are text", async () => {
    const rows: EventsManifest = [
      { emit: "log", from: "tool", value: "return 'Calling ' + tool.name + '; '", accumulate: true },
      { emit: "results", from: "tool", value: "return tool.isError ? null : tool.result.result", accumulate: true },
    ];
    const kept = new Map<string, unknown[]>();
    expect(await toolOutputs(rows, scope, answered('{"result":1}'), evaluator, kept)).toEqual({ log: "Calling convertUnits; ", results: [1] });
    expect(await toolOutputs(rows, scope, answered("no", true), evaluator, kept)).toEqual({ log: "Calling convertUnits; Calling convertUnits; ", results: [1] });
    expect(await toolOutputs(rows, scope, answered('{"result":2}'), evaluator, kept)).toEqual({ log: "Calling convertUnits; Calling convertUnits; Calling convertUnits; ", results: [1, 2] });
  });

  it("knows whether a node has any `from: tool` row", async () => {
    expect(hasToolRows(events)).toBe(true);
    expect(hasToolRows([{ emit: "answer", from: "complete" }])).toBe(false);
    expect(hasToolRows(undefined)).toBe(false);
  });
});
