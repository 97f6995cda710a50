import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../lib/db/create-client";
import { turnStepData, writeSeededTotals } from "../../lib/db/run-aggregates";

/**
 * A finished run of one agent whose trace has `rows` rows: half of them
 * model turns (journalled as the engine records them, RunStep kind
 * model-turn with its row), each asking for one tool call, half the calls
 * they asked for, with the totals and turn columns the journal keeps beside
 * them (lib/db/run-aggregates.ts). Returns the run id.
 */
export async function seedTurnTrace(db: PrismaClient, rows: number): Promise<string> {
  const runId = randomUUID();
  const nodeRunId = randomUUID();
  const turns = Math.max(1, Math.floor(rows / 2));
  const start = Date.UTC(2026, 10, 30, 9, 0, 0);
  await db.run.create({
    data: {
      id: runId, workflowId: "demo", document: JSON.stringify({ version: 1, name: `Bench turns (${rows} rows)`, nodes: [], edges: [] }),
      input: JSON.stringify({ question: "many turns" }), status: "completed", outputs: JSON.stringify({ result: "done" }),
      startedAt: new Date(start), endedAt: new Date(start + turns * 4 + 20),
    },
  });
  await db.nodeRun.create({ data: { id: nodeRunId, runId, nodeId: "agent", nodeType: "offline-agent", status: "completed", turns, startedAt: new Date(start + 1), endedAt: new Date(start + turns * 4 + 10) } });
  const calls = Array.from({ length: turns }, (_, index) => ({
    id: randomUUID(), runId, nodeRunId, tool: `tool${index % 12}`, server: "web", caller: "agent", stepKey: `agent#1/t${index + 1}/c0`,
    arguments: JSON.stringify({ index }), result: JSON.stringify({ index, text: "a result of some length ".repeat(4) }), outcome: JSON.stringify({ outcome: { output: "…", isError: false } }),
    error: null, isError: false, tainted: false, startedAt: new Date(start + 4 + index * 4), durationMs: 2, inputTokens: null, outputTokens: null, sequence: index + 1,
  }));
  const steps = calls.map((call, index) => {
    const key = `agent#1/t${index + 1}`;
    const toolCalls = [{ id: `call_${index}`, name: call.tool, arguments: call.arguments, input: { index } }];
    const row = {
      id: randomUUID(), nodeRunId, nodeId: "agent", sequence: index + 1, model: "gpt-bench", provider: "openai-chat (declarative)", text: "", toolCalls, finishReason: "tool-calls",
      inputTokens: 100 + index, outputTokens: 12, costUsd: null, startedAt: new Date(start + 2 + index * 4).toISOString(), durationMs: 2, callsBefore: index, contextKey: null, sentResults: [],
    };
    const value = { turn: { text: "", toolCalls }, model: { protocol: "bench" }, latencyMs: 2, sent: { tools: [], results: [] }, row };
    return { runId, key, kind: "model-turn", value: JSON.stringify(value), recordedAt: new Date(start + 3 + index * 4), ...turnStepData("model-turn", value) };
  });
  for (let offset = 0; offset < turns; offset += 1000) {
    await db.toolCall.createMany({ data: calls.slice(offset, offset + 1000) });
    await db.runStep.createMany({ data: steps.slice(offset, offset + 1000) });
  }
  await writeSeededTotals(db, runId, calls, steps.map((step) => JSON.parse(step.value)));
  return runId;
}
