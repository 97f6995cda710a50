import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgres, type TestPostgres } from "../../lib/db/postgres/test-postgres";
import { postgresDatabase } from "../../lib/db/sql/postgres-database";
import type { SqlDatabase } from "../../lib/db/sql/sql-database";
import { countingServer, type CountingServer, writeDrillNodes } from "./drill.fixture";
import { enqueueRun, startWorkerProcess, waitForRuns, type WorkerProcess } from "./drill-workers.fixture";
import { tcpProxy, type TcpProxy } from "./tcp-proxy.fixture";

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

let db: SqlDatabase;
let server: CountingServer;
let proxy: TcpProxy;
let folder: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  if (!postgres) return;
  db = postgresDatabase(postgres.url);
  server = await countingServer({ delayMs: 400 });
  const url = new URL(postgres.url);
  proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-pg-outage-"));
}, 60_000);

afterAll(async () => {
  worker?.kill("SIGKILL");
  await worker?.exited;
  await proxy?.close();
  await db?.close();
  await server?.close();
  await postgres?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** start → s1 → s2 → s3 → end, each step a 400 ms call to the counting server. */
function threeSteps(baseUrl: string) {
  const signal = (id: string, source: string, sourceHandle: string, target: string, targetHandle: string) => ({ id, kind: "signal" as const, source, sourceHandle, target, targetHandle });
  const step = (id: string) => ({ id, type: "drill-step", position: { x: 0, y: 0 }, config: { baseUrl, name: id } });
  return {
    version: 1,
    name: "three steps",
    nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "tag", type: "string", required: true }] } }, step("s1"), step("s2"), step("s3"), { id: "end", type: "end", position: { x: 0, y: 0 }, config: {} }],
    edges: [signal("e1", "start", "tag", "s1", "tag"), signal("e2", "s1", "tag", "s2", "tag"), signal("e3", "s2", "tag", "s3", "tag"), signal("e4", "s3", "tag", "end", "result")],
  };
}

describe.skipIf(skipped !== null)("Postgres goes away mid-run and comes back", () => {
  it("the worker says so in one line per problem, loses nothing, and the run finishes once the database is back", async () => {
    const through = new URL(postgres!.url);
    through.host = `127.0.0.1:${proxy.port}`;
    worker = startWorkerProcess({
      DATABASE_URL: through.toString(),
      SWITCHBOARD_NODES_DIR: await writeDrillNodes(folder),
      SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: server.url,
      SWITCHBOARD_LEASE_SECONDS: "2",
      SWITCHBOARD_HEARTBEAT_MS: "200",
      SWITCHBOARD_POLL_MS: "100",
    }, ["--concurrency", "1"]);
    await worker.ready;
    const runId = await enqueueRun(db, threeSteps(server.url), { tag: "outage" });
    // Mid-run: the first step is recorded, the second one is on its way to the outside world.
    const recorded = async () => (await db.query(`SELECT 1 FROM "RunStep" WHERE "runId" = ? AND "key" LIKE 's1%'`, [runId])).length > 0;
    while (!(await recorded())) await new Promise((resolve) => setTimeout(resolve, 20));
    await proxy.stop();
    const before = worker.output().length;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const during = worker.output().slice(before);
    await proxy.start();

    await waitForRuns(db, [runId], ["completed"], 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the worker said:\n${worker!.output()}`);
    });
    const [run] = await db.query<{ outputs: string }>(`SELECT "outputs" FROM "Run" WHERE "id" = ?`, [runId]);
    expect(JSON.parse(run.outputs)).toEqual({ result: "outage" });
    // A step recorded before the outage reached the world once; the one caught by it may run again (it is idempotent).
    expect(server.counts.get("s1:outage")).toBe(1);
    expect(server.counts.get("s2:outage")).toBeGreaterThanOrEqual(1);
    expect(server.counts.get("s3:outage")).toBe(1);
    const steps = await db.query<{ key: string }>(`SELECT "key" FROM "RunStep" WHERE "runId" = ? AND "key" LIKE '%/step'`, [runId]);
    expect(steps.map((row) => row.key).sort()).toEqual(["s1#1/step", "s2#1/step", "s3#1/step"]);
    // What the worker said while the database was gone: one line per problem, no stack trace.
    expect(during).toMatch(/worker .*(heartbeat failed|cannot take runs|stopped unfinished)/);
    expect(during).not.toMatch(/^\s+at /m);
    expect(worker.child.exitCode).toBeNull();
  }, 120_000);
});
