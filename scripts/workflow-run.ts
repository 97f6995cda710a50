/**
 * `npm run workflow -- run`: a run started through the run service and
 * taken by a worker in this process, which takes no other run. The app's
 * database records it (migrated first when it is SQLite, as `npm start`
 * would), so nothing differs from a run the app starts but who waits.
 */
import { databaseUrl, checkRunDatabase, isPostgresUrl } from "../lib/db";
import type { Workflow } from "../lib/graph";
import type { RunOrigin, RunStatus } from "../lib/run-model";
import { closeProcessRuns, runService, startWorkerRuntime } from "../lib/runs";
import { flushOtelExport } from "../lib/trace";

export interface CommandRun {
  runId: string;
  status: RunStatus;
  outputs: Record<string, unknown>;
  error: string | null;
  nodeRuns: Array<{ nodeRunId: string; nodeId: string; nodeType: string; status: string; error: string | null }>;
  toolCalls: Array<{ nodeRunId: string | null; server: string; tool: string; arguments: unknown; result: unknown; isError: boolean; error: string | null; durationMs: number }>;
}

export async function runInThisProcess(request: { document: Workflow; input: Record<string, unknown>; origin: RunOrigin }): Promise<CommandRun | { refused: string }> {
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem && !isPostgresUrl(url)) {
    const { migrateDatabase } = await import("./prepare-app");
    await migrateDatabase(url, (line) => console.error(line));
  } else if (problem) return { refused: problem };
  const service = runService();
  const worker = { runtime: null as ReturnType<typeof startWorkerRuntime> | null };
  try {
    const started = await service.start({ workflowId: null, document: request.document, input: request.input, origin: request.origin });
    if (!started.ok) return { refused: started.field ? `${started.field}: ${started.error}` : started.error };
    // Its own run is queued already: its first claim finds it, so it listens for no other process's NOTIFY.
    worker.runtime = startWorkerRuntime({ databaseUrl: url, concurrency: 1, onlyRuns: [started.runId], ticksSchedules: false, webhook: null, wakes: null, log: (line) => console.error(line) });
    const state = await service.wait(started.runId, { timeoutMs: Number.MAX_SAFE_INTEGER });
    await flushOtelExport().catch((error: unknown) => console.error(`OpenTelemetry: the spans could not be sent: ${(error as Error).message}`));
    return { runId: started.runId, status: state?.status ?? "failed", outputs: state?.outputs ?? {}, error: state?.error ?? null, ...(await readRows(started.runId)) };
  } finally {
    await worker.runtime?.stop({ handBack: true });
    await closeProcessRuns();
  }
}

async function readRows(runId: string): Promise<Pick<CommandRun, "nodeRuns" | "toolCalls">> {
  const db = runService().db;
  const nodeRuns = await db.query<{ id: string; nodeId: string; nodeType: string; status: string; error: string | null }>(
    `SELECT "id", "nodeId", "nodeType", "status", "error" FROM "NodeRun" WHERE "runId" = ? ORDER BY "startedAt", "id"`,
    [runId],
  );
  const calls = await db.query<{ nodeRunId: string | null; server: string; tool: string; arguments: string; result: string | null; isError: unknown; error: string | null; durationMs: unknown }>(
    `SELECT "nodeRunId", "server", "tool", "arguments", "result", "isError", "error", "durationMs" FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`,
    [runId],
  );
  return {
    nodeRuns: nodeRuns.map((row) => ({ nodeRunId: row.id, nodeId: row.nodeId, nodeType: row.nodeType, status: row.status, error: row.error })),
    toolCalls: calls.map((row) => ({
      nodeRunId: row.nodeRunId,
      server: row.server,
      tool: row.tool,
      arguments: JSON.parse(row.arguments),
      result: row.result === null ? null : JSON.parse(row.result),
      isError: Boolean(row.isError),
      error: row.error,
      durationMs: Number(row.durationMs),
    })),
  };
}
