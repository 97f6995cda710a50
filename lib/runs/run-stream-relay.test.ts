/**
 * Live text across processes, on Postgres: a worker process (`npm run
 * worker`) runs the turn, and this process follows it as the web process
 * does, hearing the agent's text through the run-text relay (NOTIFY on
 * `switchboard_run_text`), piece by piece, before the turn is recorded.
 * Without the relay the text would come whole from the journal, in one piece.
 */
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "../db/demo-workflow";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { startRunTextRelay, type RunTextRelayHandle } from "../db/postgres/run-text-relay";
import { openSqlDatabase } from "../db/sql/open-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { startWorkerProcess, type WorkerProcess } from "../../testing/queue/drill-workers.fixture";
import { followRunStream } from "./run-stream";
import { RunService } from "./run-service";
import type { RunOrigin } from "../run-model";

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);


describe.skipIf(!postgres)("a run a worker process runs, followed from another process on Postgres", () => {
  let db: SqlDatabase;
  let relay: RunTextRelayHandle;
  let worker: WorkerProcess;
  let service: RunService;

  beforeAll(async () => {
    db = openSqlDatabase(postgres!.url);
    await db.execute(`INSERT INTO "Workflow" ("id", "name", "description", "document", "createdAt", "updatedAt") VALUES ('demo', 'Demo', '', ?, ?, ?)`, [JSON.stringify(demoWorkflow.document), new Date(), new Date()]);
    await db.execute(`INSERT INTO "ChatThread" ("id", "workflowId", "ownerId", "title", "shared", "place", "createdAt", "updatedAt") VALUES ('t1', 'demo', 'ada', 'Units', false, 'page', ?, ?)`, [new Date(), new Date()]);
    // This process is the web process: it hears other processes' text through its relay.
    relay = startRunTextRelay(postgres!.url);
    await relay.ready;
    expect(relay.listening).toBe(true);
    // The offline model writes a word every 150 ms, so the answer takes about two seconds.
    worker = startWorkerProcess({ DATABASE_URL: postgres!.url, SWITCHBOARD_POLL_MS: "100", SWITCHBOARD_OFFLINE_STREAM_MS: "150" });
    await worker.ready;
    service = new RunService({ db, nodeTypes: () => Promise.reject(new Error("not checked")), wake: () => undefined });
  }, 120_000);

  afterAll(async () => {
    worker?.kill("SIGKILL");
    await relay?.close();
    await db?.close();
    await postgres?.dispose();
  });

  async function start(origin: RunOrigin, threadId?: string): Promise<string> {
    const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question: "convert 5 kilometre to mile" }, origin, ...(threadId ? { threadId } : {}), check: "document" });
    if (!started.ok) throw new Error(started.error);
    return started.runId;
  }

  /** Follows the run to its end: what the stream wrote, and the run's recorded answer. */
  async function follow(runId: string, options: { after?: () => Promise<void> } = {}): Promise<{ heard: UIMessageChunk[]; answer: string }> {
    await options.after?.();
    const heard: UIMessageChunk[] = [];
    await followRunStream({ db, runId, write: (chunk) => heard.push(chunk), pollMs: 50 });
    const [run] = await db.query<{ status: string; outputs: string }>(`SELECT "status", "outputs" FROM "Run" WHERE "id" = ?`, [runId]);
    expect(run.status, worker.output()).toBe("completed");
    return { heard, answer: (JSON.parse(run.outputs) as { result: string }).result };
  }

  const deltas = (heard: UIMessageChunk[]) => heard.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));

  /** Resolves once the run's tool has answered: the agent's answer turn is under way. */
  async function answerUnderWay(runId: string): Promise<void> {
    for (let tries = 0; ; tries++) {
      const [calls] = await db.query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "ToolCall" WHERE "runId" = ?`, [runId]);
      if (Number(calls.n) > 0) return;
      if (tries > 400) throw new Error(`the tool was never called:\n${worker.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("streams a chat turn's answer to a follower who joins mid-answer: the text so far, then piece by piece, once", async () => {
    const runId = await start({ kind: "chat", by: "ada@example.test", threadId: "t1" }, "t1");
    // Nobody here follows the run until its answer is under way: the worker's text so far is sent when this process says it follows.
    await answerUnderWay(runId);
    const { heard, answer } = await follow(runId, { after: () => new Promise((resolve) => setTimeout(resolve, 400)) });
    expect(answer).toMatch(/^\(offline model\) .*answered: .*mile/);
    expect(deltas(heard).join("")).toBe(answer);
    // The text so far (several words at once), then piece by piece: the journal alone would give the whole answer in one piece.
    expect(deltas(heard)[0]!.trim().split(" ").length).toBeGreaterThan(1);
    expect(deltas(heard).length).toBeGreaterThan(2);
    expect(heard.filter((chunk) => chunk.type === "text-start")).toHaveLength(1);
  }, 60_000);

  it("has a run page's follower make the worker write a run live, and a follower who joins mid-answer start from the text so far", async () => {
    // Not a chat turn: the worker's agent writes live only because someone follows the run (from this process).
    const runId = await start({ kind: "api", by: "ada@example.test" });
    const first = follow(runId);
    // A second follower here joins once the answer is under way: it starts from the text so far this process heard, then grows with the first.
    await answerUnderWay(runId);
    const late = follow(runId, { after: () => new Promise((resolve) => setTimeout(resolve, 400)) });
    const [one, two] = await Promise.all([first, late]);
    expect(deltas(one.heard).join("")).toBe(one.answer);
    expect(deltas(one.heard).length).toBeGreaterThan(5);
    expect(deltas(two.heard).join("")).toBe(two.answer);
    expect(deltas(two.heard).length).toBeGreaterThan(1);
    // Its first piece is the text so far: several words at once.
    expect(deltas(two.heard)[0]!.trim().split(" ").length).toBeGreaterThan(1);
  }, 60_000);
});
