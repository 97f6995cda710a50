/**
 * TEST DOUBLE helpers for the kill drills: worker processes (`npm run
 * worker`, started through the bundled command, scripts/cli.mjs, in their own process group so SIGKILL takes
 * the whole process), and queued runs written as `workflow start` writes them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { SqlDatabase } from "../../lib/db/sql/sql-database";
import { RunService } from "../../lib/runs/run-service";

const root = path.resolve(import.meta.dirname, "..", "..");
/** `npm run worker` without npm: the bundled command (scripts/cli.mjs builds it first when it is stale). */
const launcher = path.join(root, "scripts", "cli.mjs");

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker has said it takes runs. */
  ready: Promise<void>;
  output: () => string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

export function startWorkerProcess(env: Record<string, string>, args: string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [launcher, "worker", ...args], { cwd: root, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (/takes runs from/.test(output)) resolve();
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("exit", (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${output}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    ready,
    output: () => output,
    exited,
    kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-(child.pid as number), signal);
      } catch {
        // Already gone.
      }
    },
  };
}

/** Queues a run of this document through the run service, as `npm run workflow -- start` does (its NOTIFY wakes the worker processes on Postgres; on SQLite they poll). */
export async function enqueueRun(db: SqlDatabase, document: unknown, input: Record<string, unknown>): Promise<string> {
  const started = await new RunService({ db, nodeTypes: () => Promise.reject(new Error("a drill run is not checked against node types")), wake: () => undefined }).start({ workflowId: null, document, input, origin: { kind: "test" }, check: "document" });
  if (!started.ok) throw new Error(started.error);
  return started.runId;
}

/** Waits until every run has one of these statuses (polling the database); throws after `timeoutMs`. */
export async function waitForRuns(db: SqlDatabase, runIds: readonly string[], statuses: readonly string[], timeoutMs: number, pollMs = 100): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.query<{ id: string; status: string }>(`SELECT "id", "status" FROM "Run" WHERE "id" IN (${runIds.map(() => "?").join(", ")})`, [...runIds]);
    const byId = new Map(rows.map((row) => [row.id, row.status]));
    if (runIds.every((id) => statuses.includes(byId.get(id) ?? ""))) return byId;
    if (Date.now() > deadline) throw new Error(`runs still not ${statuses.join("/")}: ${[...byId].filter(([, status]) => !statuses.includes(status)).map(([id, status]) => `${id} ${status}`).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
