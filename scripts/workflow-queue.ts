/**
 * The queue commands of `npm run workflow` (see scripts/workflow.ts):
 *   start FILE.json | --workflow ID [--input JSON] [--json]   → { "runId" } (queued; returns at once)
 *   wait RUN_ID [--timeout SECONDS] [--json]                   → { "status", "outputs", "toolCalls" }
 *   status RUN_ID [--json]                                     → { "status", "workerId", "resumeCount", … }
 *   cancel RUN_ID                                              → cancels from any process
 * A worker takes the queued run: the one inside `npm start`, or `npm run worker`.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { databaseUrl, checkRunDatabase, openSqlDatabase, type SqlDatabase } from "../lib/db";
import { closeProcessRuns, runService } from "../lib/runs";
import { commandUser } from "./command-user";

export class QueueUsageError extends Error {}

const finished = new Set(["completed", "failed", "cancelled", "needs-attention"]);

export async function runQueueCommand(command: string, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { input: { type: "string", default: "{}" }, json: { type: "boolean", default: false }, workflow: { type: "string" }, timeout: { type: "string", default: "60" } },
    allowPositionals: true,
  });
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem) throw new QueueUsageError(problem);
  const db = openSqlDatabase(url);
  try {
    if (command === "start") return await start(db, positionals[0], values);
    const runId = positionals[0];
    if (!runId) throw new QueueUsageError(`usage: npm run workflow -- ${command} RUN_ID`);
    if (command === "wait") return await wait(db, runId, Number(values.timeout), values.json);
    if (command === "status") return await status(db, runId, values.json);
    const result = await runService().cancel(runId);
    if (result === "unknown") throw new QueueUsageError(`there is no run ${runId}`);
    print(values.json, { runId, cancel: result }, result === "ended" ? `run ${runId} has already ended` : result === "cancelled" ? `run ${runId} cancelled` : `cancel requested: run ${runId} stops at its worker's next heartbeat`);
    return 0;
  } finally {
    await db.close();
    await closeProcessRuns();
  }
}

async function start(db: SqlDatabase, file: string | undefined, values: { input?: string; json?: boolean; workflow?: string }): Promise<number> {
  const input = parseJson(values.input ?? "{}", "--input");
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new QueueUsageError("--input must be a JSON object");
  let document: unknown;
  let workflowId: string | null = null;
  if (values.workflow) {
    const [row] = await db.query<{ document: string }>(`SELECT "document" FROM "Workflow" WHERE "id" = ?`, [values.workflow]);
    if (!row) throw new QueueUsageError(`there is no workflow ${values.workflow}`);
    document = JSON.parse(row.document);
    workflowId = values.workflow;
  } else if (file) {
    document = parseJson(await readFile(file, "utf8").catch(() => Promise.reject(new QueueUsageError(`cannot read ${file}`))), file);
  } else throw new QueueUsageError("usage: npm run workflow -- start FILE.json | --workflow ID [--input JSON] [--json]");
  // The same checks as the canvas's Run, then queued; the workers are woken (a NOTIFY on Postgres).
  const started = await runService().start({ workflowId, document, input, origin: { kind: "cli", by: commandUser() } });
  if (!started.ok) throw new QueueUsageError(started.field ? `${started.field}: ${started.error}` : started.error);
  print(values.json, { runId: started.runId }, started.runId);
  return 0;
}

async function wait(db: SqlDatabase, runId: string, timeoutSeconds: number, json = false): Promise<number> {
  const deadline = Date.now() + (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : 60) * 1000;
  for (;;) {
    const [run] = await db.query<{ status: string; outputs: string; error: string | null }>(`SELECT "status", "outputs", "error" FROM "Run" WHERE "id" = ?`, [runId]);
    if (!run) throw new QueueUsageError(`there is no run ${runId}`);
    if (finished.has(run.status) || Date.now() > deadline) {
      const calls = await db.query<{ tool: string; server: string; arguments: string; result: string | null; isError: unknown; error: string | null }>(
        `SELECT "tool", "server", "arguments", "result", "isError", "error" FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`,
        [runId],
      );
      const toolCalls = calls.map((call) => ({ tool: call.tool, server: call.server, arguments: JSON.parse(call.arguments), result: call.result === null ? null : JSON.parse(call.result), isError: Boolean(call.isError), error: call.error }));
      const timedOut = !finished.has(run.status);
      print(json, { status: run.status, outputs: JSON.parse(run.outputs), toolCalls, error: run.error, ...(timedOut ? { timedOut: true } : {}) }, `run ${run.status}${timedOut ? " (still going when the timeout passed)" : ""}${run.error ? `: ${run.error}` : ""}`);
      return run.status === "completed" ? 0 : 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function status(db: SqlDatabase, runId: string, json = false): Promise<number> {
  const [run] = await db.query<{ status: string; workerId: string | null; resumeCount: number; error: string | null; attention: string | null }>(
    `SELECT "status", "workerId", "resumeCount", "error", "attention" FROM "Run" WHERE "id" = ?`,
    [runId],
  );
  if (!run) throw new QueueUsageError(`there is no run ${runId}`);
  const attention = run.attention ? JSON.parse(run.attention) : null;
  print(json, { runId, status: run.status, workerId: run.workerId, resumeCount: Number(run.resumeCount), error: run.error, attention }, `${run.status}${run.workerId ? ` on ${run.workerId}` : ""}, resumed ${run.resumeCount} time(s)${run.error ? `: ${run.error}` : ""}`);
  return 0;
}

function print(json: boolean | undefined, value: unknown, line: string): void {
  console.log(json ? JSON.stringify(value) : line);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new QueueUsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}
