import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../lib/db/create-client";
import { writeSeededTotals } from "../../lib/db/run-aggregates";

/**
 * A finished run of one agent with `count` tool calls, as the sink writes
 * them: every call's result taint-tracked (a tool-result taint entry each),
 * and two outputs that came from all of them, the shape that made the trace
 * page ship everything. Returns the run id.
 */
export async function seedTrace(db: PrismaClient, count: number): Promise<string> {
  const runId = randomUUID();
  const nodeRunId = randomUUID();
  const start = Date.UTC(2026, 10, 30, 9, 0, 0);
  await db.run.create({
    data: {
      id: runId, workflowId: "demo", document: JSON.stringify({ version: 1, name: `Bench trace (${count} calls)`, nodes: [], edges: [] }),
      input: JSON.stringify({ question: "many calls" }), status: "completed", outputs: JSON.stringify({ result: "done" }),
      startedAt: new Date(start), endedAt: new Date(start + count * 2 + 20),
    },
  });
  await db.nodeRun.create({
    data: { id: nodeRunId, runId, nodeId: "agent", nodeType: "offline-agent", status: "completed", turns: count, taintedOutputs: JSON.stringify(["answer"]), startedAt: new Date(start + 1), endedAt: new Date(start + count * 2 + 10) },
  });
  const ids = Array.from({ length: count }, () => randomUUID());
  const calls = ids.map((id, index) => ({
    id, runId, nodeRunId, tool: `tool${index % 12}`, server: "web", caller: "agent",
    arguments: JSON.stringify({ index, query: `question number ${index}` }), result: JSON.stringify({ index, text: "a result of some length ".repeat(8) }), error: null,
    isError: index % 97 === 96, tainted: true, startedAt: new Date(start + 5 + index * 2), durationMs: 1 + (index % 5), inputTokens: 100 + index, outputTokens: 10, sequence: 2 * index + 1,
  }));
  const taint = ids.map((id, index) => ({
    id: randomUUID(), runId, kind: "tool-result", source: "mcp", server: "web", tool: `tool${index % 12}`, nodeId: "agent", nodeRunId, toolCallId: id, recordedAt: new Date(start + 6 + index * 2), sequence: 2 * index + 2,
  }));
  for (let offset = 0; offset < count; offset += 1000) {
    await db.toolCall.createMany({ data: calls.slice(offset, offset + 1000) });
    await db.taintRecord.createMany({ data: taint.slice(offset, offset + 1000) });
  }
  // The totals the sink keeps beside the rows (lib/db/run-aggregates.ts).
  await writeSeededTotals(db, runId, calls, []);
  for (const [index, output] of ["answer", "summary"].entries()) {
    await db.taintRecord.create({
      data: { id: randomUUID(), runId, kind: "output", nodeId: "agent", nodeRunId, output, origins: JSON.stringify(ids), recordedAt: new Date(start + count * 2 + 5), sequence: 2 * count + 1 + index },
    });
  }
  return runId;
}
