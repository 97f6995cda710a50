import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../tools/define-tool";
import { modelTurnsFromJournal, turnCost } from "../../trace/model-turns";
import { runSteps } from "../../trace/run-steps";
import type { ToolCallRow } from "../../trace/run-events";
import type { NodeRunRecord, ToolCallRecord } from "../../trace/run-trace";
import { chainDocument, runWithToolLayers, type Script, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";
import { memoryJournal } from "./memory-journal";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => (nodes = await writeToolLayerNodes()));
afterAll(async () => nodes.remove());

const lookup = defineTool({ name: "lookup", description: "Look an order up.", parameters: z.object({ id: z.string() }), idempotent: true, execute: ({ id }) => ({ id, total: 42, token: "sk-secret-value-1234" }) });
const script: Script = [
  { toolCalls: [{ name: "lookup", arguments: { id: "A1" } }, { name: "lookup", arguments: { id: "B2" } }] },
  { toolCalls: [{ name: "lookup", arguments: { id: "C3" } }] },
  { text: "all looked up" },
];
const document = chainDocument([{ id: "clerk", type: "plain-agent", tools: [{ type: "custom", name: "lookup" }] }]);

describe("model turns on the trace", () => {
  it("one turn row per model call, journalled once, placed between the calls it caused; a resume replays them without new rows", async () => {
    const rows: ToolCallRow[] = [];
    const journal = memoryJournal({ toolCall: (row) => void rows.push(row) });
    const first = await runWithToolLayers({ runId: "turns-1", document, nodesDir: nodes.nodesDir, scripts: { clerk: script }, customTools: [lookup], journal });
    expect(first.outcome.status).toBe("completed");
    const modelCalls = first.models.get("clerk")!.requests.length;
    expect(modelCalls).toBe(3);
    expect(first.sink.modelTurns).toHaveLength(modelCalls);
    expect(first.sink.modelTurns.map((turn) => [turn.stepKey, turn.callsBefore, turn.toolCalls?.length, turn.inputTokens, turn.outputTokens])).toEqual([
      ["clerk#1/t1", 0, 2, 10, 5],
      ["clerk#1/t2", 2, 1, 10, 5],
      ["clerk#1/t3", 3, 0, 10, 5],
    ]);
    expect(first.sink.modelTurns[2]).toMatchObject({ text: "all looked up", nodeRunId: first.nodeRunOf("clerk"), model: "scripted model (test double)", costUsd: null });
    expect(first.sink.modelTurns[1].sentResults.map((result) => result.name)).toEqual(["lookup", "lookup"]);

    // The tool definitions offered are kept once per run and referenced by every turn.
    const contexts = [...journal.steps.values()].filter((step) => step.kind === "model-context");
    expect(contexts).toHaveLength(1);
    expect(new Set(first.sink.modelTurns.map((turn) => turn.contextKey))).toEqual(new Set([contexts[0].key]));
    expect(contexts[0].value).toMatchObject({ tools: [expect.objectContaining({ name: "lookup", parameters: expect.any(Object) })] });

    // The journal's entries are the rows: read back, they are the same turns.
    const fromJournal = modelTurnsFromJournal("turns-1", [...journal.steps.values()].filter((step) => step.kind === "model-turn"));
    expect(fromJournal).toEqual(first.sink.modelTurns);

    // In the run's steps, each turn sits before the calls it asked for.
    const nodeRuns: NodeRunRecord[] = first.sink.nodeStarts.map((start) => ({ ...start, id: start.nodeRunId, status: "completed", outputs: {}, error: null, turns: 0, endedAt: start.startedAt, taintedOutputs: [] }) as unknown as NodeRunRecord);
    const toolCalls = rows.map((row, index) => ({ ...row, sequence: index + 1 }) as unknown as ToolCallRecord);
    const keys = runSteps({ nodeRuns, toolCalls, modelTurns: fromJournal }).map((step) => step.key);
    expect(keys.filter((key) => key.startsWith("clerk"))).toEqual(["clerk#1", "clerk#1/turn 1", "clerk#1/call 1", "clerk#1/call 2", "clerk#1/turn 2", "clerk#1/call 3", "clerk#1/turn 3"]);

    // A resume of the finished run replays every turn: the model is not asked, no new turn row is reported.
    const again = await runWithToolLayers({ runId: "turns-1", document, nodesDir: nodes.nodesDir, scripts: { clerk: script }, customTools: [lookup], journal });
    expect(again.outcome.status).toBe("completed");
    expect(again.models.get("clerk")!.requests).toHaveLength(0);
    expect(again.sink.modelTurns).toHaveLength(0);
  });

  it("a turn's cost comes from the manifest's prices, and is unknown without them or without usage", () => {
    expect(turnCost({ inputTokens: 1000, outputTokens: 500 }, { inputPerMillion: 2, outputPerMillion: 8 })).toBe(0.006);
    expect(turnCost({ inputTokens: 1000, outputTokens: 500 }, undefined)).toBeNull();
    expect(turnCost({ inputTokens: null, outputTokens: 500 }, { inputPerMillion: 2, outputPerMillion: 8 })).toBeNull();
  });
});
