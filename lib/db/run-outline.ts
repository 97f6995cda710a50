import type { PrismaClient } from "./create-client";
import { toDatabaseError } from "./database-error";
import { fromJsonText, objectFromJsonText } from "./json-text";
import { statusOf } from "./run-rows";
import { nodeStatuses, runStatuses, type RunOutline } from "../trace";

/**
 * A run's outline (see RunOutline), its calls in the order they started:
 * the columns a test case's verdict judges, and no more: no results, turns,
 * taint or timeline (a 1,000-call run's whole trace costs several times
 * this to read). A failed case reads the whole trace for its diff
 * (readWholeRunTrace). Null when no run has that id.
 *
 * @example const outline = await readRunOutline(prisma, runId); outline?.toolCalls.map((call) => call.tool)
 */
export async function readRunOutline(db: PrismaClient, runId: string): Promise<RunOutline | null> {
  try {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, outputs: true, error: true } });
    if (!run) return null;
    const [nodeRuns, toolCalls] = await Promise.all([
      db.nodeRun.findMany({ where: { runId }, select: { id: true, nodeId: true, parentToolCallId: true, status: true, error: true } }),
      // Raw: a run's calls are read in the thousands here, and the query engine's shaping of each row costs more than the read.
      db.$queryRaw<Array<{ nodeRunId: string | null; tool: string; server: string; arguments: string; error: string | null; stepKey: string | null }>>`SELECT "nodeRunId", "tool", "server", "arguments", "error", "stepKey" FROM "ToolCall" WHERE "runId" = ${runId} ORDER BY "startedAt", "sequence"`,
    ]);
    return {
      run: { ...statusOf(run, runStatuses), outputs: objectFromJsonText(run.outputs) },
      nodeRuns: nodeRuns.map((row) => ({ id: row.id, nodeId: row.nodeId, parentToolCallId: row.parentToolCallId, error: statusOf(row, nodeStatuses).error })),
      toolCalls: toolCalls.map((row) => ({ nodeRunId: row.nodeRunId, tool: row.tool, server: row.server, arguments: fromJsonText(row.arguments), error: row.error, ...(row.stepKey ? { stepKey: row.stepKey } : {}) })),
    };
  } catch (error) {
    throw toDatabaseError(error, `read run "${runId}"`);
  }
}
