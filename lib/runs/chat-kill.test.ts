/**
 * A worker process SIGKILLed while it streams a chat turn's answer: another
 * worker takes the run over from its journal, and the thread shows one
 * complete answer, once. The chat's stream is followed from this process
 * (as the web process follows a worker elsewhere): the answer arrives whole
 * from the journal, with one text part per model turn.
 */
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "../db/demo-workflow";
import { sqliteDatabase } from "../db/sql/sqlite-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { startWorkerProcess, waitForRuns, type WorkerProcess } from "../../testing/queue/drill-workers.fixture";
import { followRunStream } from "./run-stream";
import { RunService } from "./run-service";

let database: TemporaryDatabase;
let db: SqlDatabase;
const workers: WorkerProcess[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = sqliteDatabase(database.url);
  await db.execute(`INSERT INTO "Workflow" ("id", "name", "description", "document", "createdAt", "updatedAt") VALUES ('demo', 'Demo', '', ?, ?, ?)`, [JSON.stringify(demoWorkflow.document), new Date(), new Date()]);
  await db.execute(`INSERT INTO "ChatThread" ("id", "workflowId", "ownerId", "title", "shared", "place", "createdAt", "updatedAt") VALUES ('t1', 'demo', 'ada', 'Units', false, 'page', ?, ?)`, [new Date(), new Date()]);
  // The answer streams slowly (a word every 150 ms), so the kill lands in the middle of it.
  env = { DATABASE_URL: database.url, SWITCHBOARD_LEASE_SECONDS: "1", SWITCHBOARD_HEARTBEAT_MS: "200", SWITCHBOARD_POLL_MS: "50", SWITCHBOARD_OFFLINE_STREAM_MS: "150" };
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await db?.close();
  await database?.dispose();
});

describe("a chat turn whose worker is killed mid-answer", () => {
  it("is taken over and shows one complete answer", async () => {
    const service = new RunService({ db, nodeTypes: () => Promise.reject(new Error("not checked")), wake: () => undefined });
    const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question: "convert 5 kilometre to mile" }, origin: { kind: "chat", by: "ada@example.test", threadId: "t1" }, threadId: "t1", check: "document" });
    if (!started.ok) throw new Error(started.error);
    const chunks: UIMessageChunk[] = [];
    const following = followRunStream({ db, runId: started.runId, write: (chunk) => chunks.push(chunk), pollMs: 50 });

    const first = startWorkerProcess(env);
    workers.push(first);
    await first.ready;
    // The tool answered: the agent's second model turn (the answer) is streaming now.
    for (let tries = 0; ; tries++) {
      const [call] = await db.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "ToolCall" WHERE "runId" = ?`, [started.runId]);
      if (Number(call.n) > 0) break;
      if (tries > 600) throw new Error(`the tool was never called:\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [before] = await db.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "RunStep" WHERE "runId" = ? AND "kind" = 'model-turn'`, [started.runId]);
    expect(Number(before.n)).toBe(1);
    first.kill("SIGKILL");
    await first.exited;

    const second = startWorkerProcess(env);
    workers.push(second);
    await second.ready;
    await waitForRuns(db, [started.runId], ["completed"], 60_000);
    await following;

    const [run] = await db.query<{ outputs: string; resumeCount: number; threadTurn: number }>(`SELECT "outputs", "resumeCount", "threadTurn" FROM "Run" WHERE "id" = ?`, [started.runId]);
    const answer = (JSON.parse(run.outputs) as { result: string }).result;
    expect(Number(run.resumeCount)).toBeGreaterThanOrEqual(1);
    expect(Number(run.threadTurn)).toBe(1);
    expect(answer).toMatch(/^\(offline model\) .*answered: .*mile/);
    const text = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
    expect(text).toBe(answer);
    expect(chunks.filter((chunk) => chunk.type === "text-start")).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === "tool-input-available")).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === "tool-output-available")).toHaveLength(1);
  }, 120_000);
});
