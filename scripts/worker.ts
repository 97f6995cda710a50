/**
 * npm run worker [-- --concurrency N]
 *   Takes queued runs from the database named by DATABASE_URL and runs them,
 *   any number of these processes on any number of machines (Postgres), or
 *   beside `npm start` on one box. Runs held by a worker that dies are taken
 *   over by another once its lease expires (SWITCHBOARD_LEASE_SECONDS, 10).
 *   SIGTERM / SIGINT: stops taking runs, hands back the ones it holds at
 *   their next step, and exits 0.
 */
import { parseArgs } from "node:util";
import { databaseUrl, checkRunDatabase } from "../lib/db";
import { startWorkerRuntime } from "../lib/runs";
import { reportPrivateOriginSettings } from "../lib/security";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { concurrency: { type: "string", default: process.env.SWITCHBOARD_WORKER_CONCURRENCY ?? "4" } } });
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency must be a whole number of at least 1 (got ${values.concurrency})`);
  if (!reportPrivateOriginSettings((line) => console.error(`worker: ${line}`))) process.exit(1);
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem) {
    console.error(`worker: ${problem}`);
    process.exit(1);
  }
  // On Postgres the runtime LISTENs for queued runs from every process; polling is the fallback either way.
  const runtime = startWorkerRuntime({ databaseUrl: url, concurrency, nodesDir: process.env.SWITCHBOARD_NODES_DIR, log: (line) => console.log(line) });
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`worker: ${signal}: handing back ${runtime.worker.running} run(s) at their next step`);
      void runtime.stop({ handBack: true }).then(() => {
        console.log("worker: stopped");
        process.exit(0);
      });
    });
  }
  // Warm first (catalogue, sandbox, connections): the first run claimed is run at once.
  await runtime.ready;
  if (!stopping) console.log(`worker: ${runtime.worker.workerId} takes runs from ${redactUrl(url)} (${concurrency} at a time)`);
}

/** A URL as a log line may show it: no password. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}

main().catch((error: unknown) => {
  console.error(`worker: ${(error as Error).message.split("\n")[0]}`);
  process.exit(1);
});
