import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetStore } from "../db/datasets";
import { demoWorkflow } from "../db/demo-workflow";
import { EvaluationStore } from "../db/evaluations";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { postgresDatabase } from "../db/sql/postgres-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { startWorkerProcess, type WorkerProcess } from "../../testing/queue/drill-workers.fixture";

// A JSONL dataset (40 rows in `npm test`, 200 under `npm run drill`) scored
// on two versions of the demo workflow by `npm run workflow -- eval`, every
// row a run through the queue taken by three worker processes on Postgres.
// Version 2 rounds the unit converter's results to 3 significant digits, so
// its outputs differ on every row.

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

const root = path.resolve(import.meta.dirname, "..", "..");
/** The dataset's rows: SWITCHBOARD_DRILL_ROWS, 40 by default; `npm run drill` scores the full 200. */
const rowCount = Number(process.env.SWITCHBOARD_DRILL_ROWS ?? 40);
const workers: WorkerProcess[] = [];
let folder: string;
let datasetFile: string;

/** Version 1's answer to "convert N kilometre to mile", as the offline model words it. */
function answer(value: number): string {
  const round = (n: number) => Number(n.toPrecision(10));
  const ratio = 1000 / 1609.344;
  return `(offline model) convertUnits answered: ${JSON.stringify({ value, from: "kilometre", to: "mile", result: round(value * ratio), formula: `mile = kilometre × ${round(ratio)}`, dimension: "length" })}`;
}

async function addDemo(db: SqlDatabase): Promise<void> {
  const now = new Date();
  const second = structuredClone(demoWorkflow.document) as { nodes: Array<{ id: string; config: Record<string, unknown> }> };
  second.nodes.find((node) => node.id === "converter")!.config.significantDigits = 3;
  await db.execute(`INSERT INTO "Workflow" ("id", "name", "description", "document", "createdAt", "updatedAt") VALUES (?, ?, '', ?, ?, ?)`, ["demo", "Demo", JSON.stringify(demoWorkflow.document), now, now]);
  for (const [number, document] of [[1, demoWorkflow.document], [2, second]] as const) {
    await db.execute(`INSERT INTO "WorkflowVersion" ("id", "workflowId", "number", "document", "note", "createdAt") VALUES (?, 'demo', ?, ?, '', ?)`, [`demo-v${number}`, number, JSON.stringify(document), now]);
  }
  await new DatasetStore(db).saveScorers("demo", [{ kind: "exact" }, { kind: "contains", value: "kilometre" }]);
}

/** `npm run workflow -- eval …` (the bundled command, scripts/cli.mjs) in its own process group (a SIGKILL takes all of it). */
function evalCommand(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }>; kill: () => void } {
  const child = spawn(process.execPath, ["scripts/cli.mjs", "workflow", "eval", ...args], { cwd: root, env: { ...process.env, DATABASE_URL: postgres!.url }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
  return { child, done, kill: () => process.kill(-(child.pid as number), "SIGKILL") };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-evaluations-"));
  datasetFile = path.join(folder, "kilometres.jsonl");
  const lines = Array.from({ length: rowCount }, (_, index) => JSON.stringify({ input: { question: `convert ${index + 1} kilometre to mile` }, expected: { result: answer(index + 1) } }));
  await writeFile(datasetFile, `${lines.join("\n")}\n`);
});

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await Promise.all(workers.map((worker) => worker.exited));
  await postgres?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.skipIf(skipped !== null)("a dataset scored on two versions on Postgres with 3 worker processes", () => {
  it(`scores ${rowCount} rows per version through the queue, every worker taking rows; a killed evaluation resumes without starting a row twice`, async () => {
    const db = postgresDatabase(postgres!.url);
    try {
      await addDemo(db);
      const started = [0, 1, 2].map(() => startWorkerProcess({ DATABASE_URL: postgres!.url }, ["--concurrency", "3"]));
      workers.push(...started);
      await Promise.all(started.map((worker) => worker.ready));

      // Version 1, killed part way through, then run again: it resumes.
      const first = evalCommand([datasetFile, "--workflow", "demo", "--version", "1", "--window", "12"]);
      const scoredRows = () => db.query<{ count: unknown }>(`SELECT COUNT(*) AS "count" FROM "EvaluationRow" WHERE "status" = 'scored'`).then(([row]) => Number(row.count));
      await until(scoredRows, (count) => count >= rowCount / 5, 120_000);
      first.kill();
      await first.done;
      const again = await evalCommand([datasetFile, "--workflow", "demo", "--version", "1", "--json"]).done;
      expect(again.stderr).toContain("resuming");
      expect(again.code, again.stderr).toBe(0);
      const one = JSON.parse(again.stdout) as { evaluationId: string; resumed: boolean; summary: { rows: number; passed: number; meanScore: number } };
      expect(one).toMatchObject({ resumed: true, summary: { rows: rowCount, scored: rowCount, passed: rowCount, meanScore: 1 } });

      const second = await evalCommand([datasetFile, "--workflow", "demo", "--version", "2", "--json"]).done;
      expect(second.code, second.stderr).toBe(1);
      const two = JSON.parse(second.stdout) as { evaluationId: string; summary: { rows: number; scored: number; passed: number; meanScore: number } };
      expect(two.summary).toMatchObject({ rows: rowCount, scored: rowCount, passed: 0, meanScore: 0.5 });

      // One run per row and version, every one through the queue, spread over the three workers.
      const runs = await db.query<{ origin: string; workerId: string; status: string }>(`SELECT "origin", "workerId", "status" FROM "Run" WHERE "originKind" = 'eval'`);
      expect(runs).toHaveLength(2 * rowCount);
      expect(runs.every((run) => run.status === "completed")).toBe(true);
      const rowsOf = (evaluationId: string) => new Set(runs.map((run) => JSON.parse(run.origin) as { evaluationId: string; row: number }).filter((origin) => origin.evaluationId === evaluationId).map((origin) => origin.row));
      expect(rowsOf(one.evaluationId).size).toBe(rowCount);
      expect(rowsOf(two.evaluationId).size).toBe(rowCount);
      expect(new Set(runs.map((run) => run.workerId.split(":").slice(0, 2).join(":"))).size).toBe(3);

      // The table and the per-row diff the Tests page reads.
      const store = new EvaluationStore(db);
      const table = await store.evaluations("demo");
      expect(table.map((evaluation) => [evaluation.version, evaluation.status, evaluation.summary.passRate])).toEqual([
        [1, "completed", 1],
        [2, "completed", 0],
      ]);
      expect(table[0].summary.p95Ms).toBeGreaterThanOrEqual(table[0].summary.p50Ms!);
      expect(table[0].summary.inputTokens).toBeGreaterThan(0);
      const pairs = await store.rowPairs(one.evaluationId, two.evaluationId, { limit: 5, onlyDifferent: true });
      expect(pairs).toHaveLength(5);
      expect(pairs[0]).toMatchObject({ position: 0, line: 1, a: { pass: true, outputs: { result: answer(1) } }, b: { pass: false, score: 0.5 } });
      expect(pairs[0].b.outputs?.result).toContain('"formula":"mile = kilometre × 0.621"');
    } finally {
      for (const worker of workers.splice(0)) worker.kill("SIGTERM");
      await db.close();
    }
  }, 600_000);
});
