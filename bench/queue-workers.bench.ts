/**
 * The queue with real worker processes (`npm run worker`, scripts/worker.ts),
 * as they are deployed:
 * - queue latency, enqueue → first step, p50 / p99;
 * - runs per second with 1 vs 3 worker processes (one run at a time each) on
 *   runs whose one step calls a fixture that takes 50 ms (target: 3 ≥ 2.2x 1);
 * - cancel from another process (this one) → the run ends cancelled: the
 *   time it takes, p50 / max (the promise: within 2 s);
 * - on Postgres, 300 trivial runs (start → end), default settings, queued
 *   by 10 producers at once while the workers listen: runs per second with
 *   1 and 3 worker processes (targets: 1 ≥ 20/s, 3 ≥ 2.7x 1) with the CPU
 *   each run costs the workers, Postgres and the producers, and start → end
 *   p50 of one run at a time on an idle worker (target < 30 ms); each run is
 *   woken by the run service's NOTIFY.
 * On Postgres (SWITCHBOARD_TEST_POSTGRES_URL; LISTEN/NOTIFY carries the
 * wake-ups) and on SQLite (one worker process beside this one on the file).
 *
 *   npx tsx bench/queue-workers.bench.ts [--trivial-only]
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import os from "node:os";
import { requestCancel } from "../lib/db/database-run-queue";
import { createTestPostgres } from "../lib/db/postgres/test-postgres";
import { openSqlDatabase } from "../lib/db/sql/open-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { createTemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { countingServer, trivialWorkflow as trivial, writeDrillNodes } from "../testing/queue/drill.fixture";
import { enqueueRun, startWorkerProcess, waitForRuns, type WorkerProcess } from "../testing/queue/drill-workers.fixture";
import { defaultQueueTimings } from "../lib/queue/run-queue";

const folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-queue-bench-"));
const nodesDir = await writeDrillNodes(folder);
const fifty = await countingServer({ delayMs: 50 });
const slow = await countingServer({ delayMs: 30_000 });

/** start → one step (a 50 ms call to the fixture, or a long one) → end. */
function oneStep(baseUrl: string) {
  const signal = (id: string, source: string, sourceHandle: string, target: string, targetHandle: string) => ({ id, kind: "signal" as const, source, sourceHandle, target, targetHandle });
  return {
    version: 1,
    name: "one step",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "tag", type: "string", required: true }] } },
      { id: "s1", type: "drill-step", position: { x: 200, y: 0 }, config: { baseUrl, name: "s1" } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [signal("e1", "start", "tag", "s1", "tag"), signal("e2", "s1", "tag", "end", "result")],
  };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const time = (value: unknown) => new Date(value instanceof Date ? value : String(value).replace(" ", "T")).getTime();

async function figures(label: string, url: string, db: SqlDatabase): Promise<void> {
  const env = { DATABASE_URL: url, SWITCHBOARD_NODES_DIR: nodesDir, SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: `${fifty.url},${slow.url}` };
  const workers: WorkerProcess[] = [];
  const start = async (count: number) => {
    const started = Array.from({ length: count }, () => startWorkerProcess(env, ["--concurrency", "1"]));
    workers.push(...started);
    await Promise.all(started.map((worker) => worker.ready));
    return started;
  };
  const stop = async (list: WorkerProcess[]) => {
    for (const worker of list) worker.kill("SIGTERM");
    await Promise.all(list.map((worker) => worker.exited));
  };
  try {
    // Latency: one idle worker; each run enqueued as the web app does (written queued, then woken).
    const [one] = await start(1);
    const latencies: number[] = [];
    for (let index = 0; index < 30; index++) {
      const enqueuedAt = Date.now();
      const runId = await enqueueRun(db, oneStep(fifty.url), { tag: `latency-${index}` });
      await waitForRuns(db, [runId], ["completed", "failed"], 30_000);
      const [first] = await db.query<{ startedAt: unknown }>(`SELECT MIN("startedAt") AS "startedAt" FROM "NodeRun" WHERE "runId" = ?`, [runId]);
      latencies.push(time(first.startedAt) - enqueuedAt);
    }
    console.log(`${label}: queue latency enqueue → first step, worker process: p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms (${latencies.length} runs; ${db.dialect === "postgres" ? "woken by NOTIFY" : `polling every ${defaultQueueTimings.pollMs} ms`})`);

    // Cancel from this process while the worker process runs the run (its step waits 30 s on the fixture).
    const cancels: number[] = [];
    for (let index = 0; index < 5; index++) {
      const runId = await enqueueRun(db, oneStep(slow.url), { tag: `cancel-${index}` });
      await waitForRuns(db, [runId], ["running"], 30_000);
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 500));
      const asked = performance.now();
      await requestCancel(db, runId);
      await waitForRuns(db, [runId], ["cancelled"], 30_000).catch(async (error) => console.log(`${label}: ${(error as Error).message}`));
      cancels.push(performance.now() - asked);
    }
    console.log(`${label}: cancel from another process → run ended cancelled: p50 ${Math.round(percentile(cancels, 0.5))} ms, max ${Math.round(Math.max(...cancels))} ms (promise: within 2,000 ms; heartbeat every ${defaultQueueTimings.heartbeatMs} ms)`);
    await stop([one]);

    // Throughput: 30 queued runs, 1 then 3 worker processes, one run at a time each.
    const rate = async (count: number) => {
      const ids = [];
      for (let index = 0; index < 30; index++) ids.push(await enqueueRun(db, oneStep(fifty.url), { tag: `rate-${count}-${index}` }));
      const list = await start(count);
      const begun = performance.now();
      await waitForRuns(db, ids, ["completed", "failed"], 120_000);
      const seconds = (performance.now() - begun) / 1000;
      await stop(list);
      return ids.length / seconds;
    };
    const single = await rate(1);
    const triple = await rate(3);
    console.log(`${label}: runs per second, one 50 ms call each: 1 worker process ${single.toFixed(1)}, 3 worker processes ${triple.toFixed(1)} = ${(triple / single).toFixed(2)}x (target ≥ 2.2x)`);
  } finally {
    for (const worker of workers) worker.kill("SIGKILL");
  }
}

/** CPU seconds (user + system) used so far by these processes, read from /proc (Linux; 0 elsewhere). */
function cpuSeconds(pids: readonly number[]): number {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // Gone: its time is lost to the figure (the workers and backends live through the measurement).
    }
  }
  return total;
}

/** Every process in these process groups (a worker process and the bundle it started). */
function groupMembers(groups: readonly number[]): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
      if (groups.includes(Number(fields[2]))) members.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return members;
}

/**
 * 300 trivial runs on worker processes with the default settings
 * (concurrency 4, poll, heartbeat, lease), woken by NOTIFY. The runs are
 * queued by 10 producers at once (each `workflow start`'s path: the run
 * service writes the run, then NOTIFYs), while the workers are idle and
 * listening; runs/s is 300 over the time from the first start to the last
 * end. The producers alone queue far faster than the workers run (printed),
 * so the figure is the workers' throughput, not one producer's round trips.
 * CPU seconds per run of the workers, of the database's backends and of
 * this process say what 2 cores allow: trivial runs are CPU-bound, so 3
 * workers on 2 shared cores cannot give 3x one.
 */
async function trivialRuns(label: string, url: string, db: SqlDatabase): Promise<void> {
  const count = 300;
  const producers = 10;
  const [{ name: database }] = await db.query<{ name: string }>(`SELECT current_database() AS "name"`);
  const backends = async () => (await db.query<{ pid: number }>(`SELECT "pid" FROM pg_stat_activity WHERE "datname" = ?`, [database])).map((row) => Number(row.pid));
  const queueAll = async (processes: number) => {
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: producers }, async () => {
        while (next < count) {
          const index = next++;
          ids[index] = await enqueueRun(db, trivial, { tag: `trivial-${processes}-${index}` });
        }
      }),
    );
    return ids;
  };
  const rate = async (processes: number, listen = true) => {
    const env = { DATABASE_URL: url, SWITCHBOARD_NODES_DIR: nodesDir, SWITCHBOARD_LISTEN: String(listen) };
    const list = Array.from({ length: processes }, () => startWorkerProcess(env));
    try {
      await Promise.all(list.map((worker) => worker.ready));
      const workerPids = groupMembers(list.map((worker) => worker.child.pid as number));
      const serverPids = await backends();
      const before = { workers: cpuSeconds(workerPids), server: cpuSeconds(serverPids), bench: process.cpuUsage() };
      const begun = performance.now();
      const ids = await queueAll(processes);
      const queuedIn = (performance.now() - begun) / 1000;
      const statuses = await waitForRuns(db, ids, ["completed", "failed"], 300_000, 10);
      const seconds = (performance.now() - begun) / 1000;
      const bench = process.cpuUsage(before.bench);
      const cpu = {
        workers: (cpuSeconds(workerPids) - before.workers) / count,
        server: (cpuSeconds(serverPids) - before.server) / count,
        bench: (bench.user + bench.system) / 1e6 / count,
      };
      // Start → end, one run at a time on an idle worker: queue write, NOTIFY, claim, run, end written.
      const spans: number[] = [];
      for (let index = 0; index < 50; index++) {
        const runId = await enqueueRun(db, trivial, { tag: `alone-${processes}-${index}` });
        await waitForRuns(db, [runId], ["completed", "failed"], 30_000, 5);
        const [row] = await db.query<{ startedAt: unknown; endedAt: unknown }>(`SELECT "startedAt", "endedAt" FROM "Run" WHERE "id" = ?`, [runId]);
        spans.push(time(row.endedAt) - time(row.startedAt));
      }
      const failed = [...statuses.values()].filter((status) => status === "failed").length;
      return { perSecond: count / seconds, queuedPerSecond: count / queuedIn, cpu, p50: percentile(spans, 0.5), p99: percentile(spans, 0.99), failed };
    } finally {
      for (const worker of list) worker.kill("SIGTERM");
      await Promise.all(list.map((worker) => worker.exited));
    }
  };
  const ms = (seconds: number) => (seconds * 1000).toFixed(1);
  const cpuLine = (figure: Awaited<ReturnType<typeof rate>>) => {
    const total = figure.cpu.workers + figure.cpu.server + figure.cpu.bench;
    return `CPU per run ${ms(total)} ms (workers ${ms(figure.cpu.workers)}, Postgres ${ms(figure.cpu.server)}, producers and this process ${ms(figure.cpu.bench)}) → at most ${(os.cpus().length / total).toFixed(0)} runs/s on ${os.cpus().length} idle cores`;
  };
  const load = os.loadavg()[0].toFixed(1);
  const one = await rate(1);
  const three = await rate(3);
  // The baseline, in this same run: the same worker polling only (every 200 ms by default), as before LISTEN/NOTIFY.
  const polling = await rate(1, false);
  console.log(`${label}: ${count} trivial runs queued by ${producers} producers at once, default settings (load ${load} → ${os.loadavg()[0].toFixed(1)}, ${os.cpus().length} cores): 1 worker ${one.perSecond.toFixed(1)} runs/s (target ≥ 20), 3 workers ${three.perSecond.toFixed(1)} runs/s = ${(three.perSecond / one.perSecond).toFixed(2)}x (target ≥ 2.7x); the producers alone queued ${one.queuedPerSecond.toFixed(0)} and ${three.queuedPerSecond.toFixed(0)} runs/s`);
  console.log(`${label}: 1 worker: ${cpuLine(one)}`);
  console.log(`${label}: 3 workers: ${cpuLine(three)}`);
  console.log(`${label}: trivial run start → end, one at a time on idle workers: p50 ${one.p50} ms, p99 ${one.p99} ms (1 worker); p50 ${three.p50} ms, p99 ${three.p99} ms (3 workers) (target p50 < 30 ms)${one.failed + three.failed > 0 ? `; ${one.failed + three.failed} runs FAILED` : ""}`);
  console.log(`${label}: baseline, 1 worker polling only (SWITCHBOARD_LISTEN=false): ${polling.perSecond.toFixed(1)} runs/s, start → end p50 ${polling.p50} ms; woken by NOTIFY: ${(one.perSecond / polling.perSecond).toFixed(2)}x the runs/s, p50 ${(one.p50 / polling.p50).toFixed(2)}x (load now ${os.loadavg()[0].toFixed(1)})`);
}

const trivialOnly = process.argv.includes("--trivial-only");

if (!trivialOnly) {
  const sqlite = await createTemporaryDatabase();
  const sqliteDb = openSqlDatabase(sqlite.url);
  await figures("SQLite", sqlite.url, sqliteDb);
  await sqliteDb.close();
  await sqlite.dispose();
}

const postgres = await createTestPostgres();
if ("skipped" in postgres) console.log(postgres.skipped);
else {
  const db = openSqlDatabase(postgres.url);
  if (!trivialOnly) await figures("Postgres", postgres.url, db);
  await trivialRuns("Postgres", postgres.url, db);
  await db.close();
  await postgres.dispose();
}
await fifty.close();
await slow.close();
await rm(folder, { recursive: true, force: true });
process.exit(0);
