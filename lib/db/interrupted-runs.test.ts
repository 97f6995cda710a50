import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holderMayBeAlive, resumeInterruptedRuns } from "./interrupted-runs";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { openSqlDatabase } from "./sql/open-database";
import type { SqlDatabase } from "./sql/sql-database";

const opened = new Map<string, SqlDatabase>();
/** The run queue's database beside the test's Prisma client (closed with the process). */
const sqlOf = (url: string): SqlDatabase => opened.get(url) ?? opened.set(url, openSqlDatabase(url)).get(url)!;

let database: TemporaryDatabase;

beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);

afterAll(async () => {
  await database?.dispose();
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

describe("the start-up sweep (embedded mode)", () => {
  it("knows a worker of this host that is gone from one that runs, and cannot tell for another host", () => {
    expect(holderMayBeAlive(`${hostname()}:${process.pid}:abcd1234`)).toBe(true);
    expect(holderMayBeAlive(`${hostname()}:${deadPid()}:abcd1234`)).toBe(false);
    expect(holderMayBeAlive(`another-host:${deadPid()}:abcd1234`)).toBe(true);
    expect(holderMayBeAlive("not-a-worker-id")).toBe(true);
  });

  it("queues the runs of a killed server's worker, leaves a live worker's to it, and fails an outside host's call", async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const earlier = new Date(now.getTime() - 1_000);
    const run = (id: string, workerId: string | null, leaseExpiresAt: Date | null) =>
      database.client.run.create({ data: { id, document: "{}", status: "running", workerId, leaseExpiresAt } });
    await run("killed-server", `${hostname()}:${deadPid()}:killed01`, later);
    await run("live-worker", `${hostname()}:${process.pid}:alive001`, later);
    await run("live-worker-lapsed", `${hostname()}:${process.pid}:alive001`, earlier);
    await run("other-host", `other-host:1234:remote01`, later);
    await run("other-host-lapsed", `other-host:1234:remote01`, earlier);
    await run("outside-host-call", null, null);
    expect(await resumeInterruptedRuns(sqlOf(database.url), now)).toEqual({ queued: 3, failed: 1, leftToLiveWorkers: 2 });
    const status = Object.fromEntries((await database.client.run.findMany({ select: { id: true, status: true } })).map((row) => [row.id, row.status]));
    expect(status).toEqual({
      "killed-server": "queued",
      "live-worker": "running",
      "live-worker-lapsed": "queued",
      "other-host": "running",
      "other-host-lapsed": "queued",
      "outside-host-call": "failed",
    });
  });

  it("queues an outside host's task run a killed server's worker held, and leaves its task working for the worker that resumes it", async () => {
    const now = new Date();
    await database.client.run.create({ data: { id: "host-task", document: "{}", input: JSON.stringify({ mcpHost: { kind: "task" } }), status: "running", workerId: `${hostname()}:${deadPid()}:killed02`, leaseExpiresAt: new Date(now.getTime() + 60_000) } });
    await database.client.mcpEndpointTask.create({ data: { id: "task-of-host-task", scope: "session:s", status: "working", pollIntervalMs: 500, runId: "host-task" } });
    expect(await resumeInterruptedRuns(sqlOf(database.url), now)).toMatchObject({ queued: 1, failed: 0 });
    expect(await database.client.run.findUniqueOrThrow({ where: { id: "host-task" } })).toMatchObject({ status: "queued" });
    expect(await database.client.mcpEndpointTask.findUniqueOrThrow({ where: { id: "task-of-host-task" } })).toMatchObject({ status: "working", result: null });
  });
});
