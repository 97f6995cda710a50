/**
 * The embedded worker: in embedded mode (SQLite, the default) the web
 * process itself runs one worker, so `npm start` alone does everything.
 * With Postgres the web app only enqueues and reads, and `npm run worker`
 * processes run the runs; SWITCHBOARD_EMBEDDED_WORKER=true|false overrides
 * either default. Started once per process from instrumentation.ts.
 */
import { databaseUrl, isPostgresUrl } from "../db";
import { entryFingerprint, processToolIndex, type ServerEntry } from "../mcp";
import { startWorkerRuntime, type WorkerRuntime } from "./worker-runtime";

/** The runs' news of servers' tools keeps this process's palette tool index fresh: a list just read, a server saying its tools changed. */
const toolNews = {
  onToolsListed: (entry: ServerEntry, names: string[]) => processToolIndex()?.record({ id: entry.id, fingerprint: entryFingerprint(entry) }, names),
  onToolsChanged: (entry: ServerEntry) => void processToolIndex()?.refresh({ id: entry.id, fingerprint: entryFingerprint(entry) }),
};

const holder = globalThis as typeof globalThis & { switchboardEmbeddedWorker?: WorkerRuntime };

export function embeddedWorkerWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = env.SWITCHBOARD_EMBEDDED_WORKER;
  if (setting === "true" || setting === "false") return setting === "true";
  return !isPostgresUrl(env.DATABASE_URL ?? databaseUrl());
}

export function startEmbeddedWorker(): void {
  if (holder.switchboardEmbeddedWorker || !embeddedWorkerWanted()) return;
  // SWITCHBOARD_NODES_DIR: where its node types are read, as for `npm run worker` (the kill drills point it at their own).
  const runtime = startWorkerRuntime({ databaseUrl: databaseUrl(), nodesDir: process.env.SWITCHBOARD_NODES_DIR, log: (line) => console.log(line), toolNews });
  holder.switchboardEmbeddedWorker = runtime;
  console.log(`worker: embedded worker ${runtime.worker.workerId} takes this server's runs`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // Runs still held are handed back at their next step; the next start resumes them.
      void runtime.stop({ handBack: true }).finally(() => process.exit(0));
    });
  }
}

