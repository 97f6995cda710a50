/**
 * Where the queue, the run journal and the engine meet for a worker: the
 * embedded worker inside the web process (instrumentation.ts, SQLite),
 * `npm run worker` (any number of processes, Postgres) and `workflow run`
 * (one run, in the command's own process) all start one here.
 */
import { randomUUID } from "node:crypto";
import { createPrismaClient, type PrismaClient, settleTasksOfRun, DatabaseRunJournal, DatabaseRunQueue, type WakeSource, listenForRuns, startRunTextRelay, isPostgresUrl, openSqlDatabase, isoFromSql, sqlTime, type SqlDatabase, readCassette, readChatHistory } from "../db";
import { type EngineEnvironment, runWorkflow } from "../engine";
import { createLocalEnvironment } from "./local-environment";
import { parseWorkflow } from "../graph";
import { parseRunOrigin } from "../run-model";
import { cassetteEnvironment } from "../evals";
import { MemorySink, otelExportFromEnv, withOtelExport } from "../trace";
import { type ExecuteRun, type QueueTimings, queueTimingsFromEnvironment, RunWorker } from "../queue";
import { type WebhookSettings, webhookSettingsFromEnvironment } from "../notify";
import { HeldEndSink, outsideTaskOf, outsideTaskRequest } from "./outside-task-run";
import { onLocalRunQueued, wakeWorkers } from "./process-runs";
import { runEnvironment, type RunEnvironmentOptions, runNodesDir, runNodeTypes } from "./run-environment";
import { RunService } from "./run-service";
import { scheduleTicker } from "./trigger-runs";
import { announceWaitingCall } from "./waiting-announcer";

export interface WorkerRuntimeOptions {
  databaseUrl: string;
  concurrency?: number;
  timings?: QueueTimings;
  nodesDir?: string;
  /** Wake-ups from other processes besides polling: default, on Postgres, a LISTEN on the run channel; null for none. */
  wakes?: WakeSource | null;
  /** Replaces the engine environment (tests: fixture models and tools). */
  environment?: (workflowId: string | null) => Promise<EngineEnvironment>;
  log?: (line: string) => void;
  /** Where a notice goes when a run starts waiting for a person; default from SWITCHBOARD_APPROVAL_WEBHOOK_URL, null for none. */
  webhook?: WebhookSettings | null;
  /** Takes only these runs (the command line's worker for its own run); default any queued run. */
  onlyRuns?: readonly string[];
  /** Starts the runs of schedules' ticks (default true; one run per tick whatever the number of workers). */
  ticksSchedules?: boolean;
  /** What runs learn of servers' tools (lists read, tools/list_changed), passed to each run's connection manager. */
  toolNews?: RunEnvironmentOptions["toolNews"];
}

export interface WorkerRuntime {
  worker: RunWorker;
  queue: DatabaseRunQueue;
  db: SqlDatabase;
  /**
   * Resolves once the worker takes runs: after its warm-up (the node
   * catalogue read and linted, the sandbox built, both database connections
   * open), so the first run it claims does not wait seconds on them while an
   * already warm worker could have run it.
   */
  ready: Promise<void>;
  /** Stops taking runs, hands back (or finishes) what it holds, closes its connections. */
  stop(options?: { handBack: boolean }): Promise<void>;
}

/** A run resumed more often than this is failed: something fails it every time (a bug, a step that kills its worker). */
export const maxResumes = 50;

export function startWorkerRuntime(options: WorkerRuntimeOptions): WorkerRuntime {
  const db = openSqlDatabase(options.databaseUrl);
  const prisma = createPrismaClient(options.databaseUrl);
  const timings = options.timings ?? queueTimingsFromEnvironment();
  // On Postgres, any process's NOTIFY for a queued run wakes this worker at once; polling is only the fallback.
  // SWITCHBOARD_LISTEN=false: polling only (a pooler in transaction mode, e.g. PgBouncer, cannot hold a LISTEN).
  const listens = isPostgresUrl(options.databaseUrl) && process.env.SWITCHBOARD_LISTEN !== "false";
  const wakes = options.wakes !== undefined ? options.wakes : listens ? listenForRuns(options.databaseUrl, { log: options.log }) : null;
  const queue = new DatabaseRunQueue(db, timings, wakes, undefined, options.onlyRuns);
  // On Postgres the text its agents write goes out live to followers in other processes (a web process's chat, run page, canvas).
  const textRelay = listens ? startRunTextRelay(options.databaseUrl, { log: (line) => options.log?.(`worker: ${line}`) }) : null;
  // A run queued by this process's run service wakes this worker at once.
  const unregister = onLocalRunQueued(() => queue.wake());
  const environment = options.environment ?? ((workflowId: string | null) => runEnvironment({ prisma, nodesDir: options.nodesDir, log: options.log, toolNews: options.toolNews }, workflowId));
  const webhook = options.webhook === undefined ? webhookSettingsFromEnvironment() : options.webhook;
  // Notices on their way: stop() lets them finish before it closes the database.
  const notices = new Set<Promise<void>>();
  const announce = webhook
    ? (runId: string) => {
        const sending = announceWaitingCall(db, runId, webhook, options.log ?? ((line) => console.warn(line))).finally(() => notices.delete(sending));
        notices.add(sending);
      }
    : undefined;
  const worker = new RunWorker({ queue, execute: executor(db, prisma, environment, options.log, announce), timings, concurrency: options.concurrency, log: options.log });
  // Schedules tick in every worker; the tick's claim lets one of them start the run.
  const ticker = options.ticksSchedules === false ? null : scheduleTicker(new RunService({ db, nodeTypes: () => runNodeTypes(options.nodesDir), wake: wakeWorkers }), db, options.log ?? ((line) => console.warn(line)));
  let stopped = false;
  // Schedules tick once the worker is warm too: the warm-up holds the process's thread, and a tick due meanwhile would be missed.
  const ready = warmUp(db, prisma, options)
    .catch((error: unknown) => options.log?.(`worker: warm-up failed (${firstLine(error)}); the runs will say why if it persists`))
    .then(() => {
      if (stopped) return;
      worker.start();
      ticker?.start();
    });
  return {
    worker,
    queue,
    db,
    ready,
    async stop(stopOptions = { handBack: true }) {
      stopped = true;
      await ready;
      unregister();
      ticker?.stop();
      await ticker?.settled();
      await worker.stop(stopOptions);
      await Promise.all(notices);
      await queue.close();
      await textRelay?.close();
      await db.close();
      await prisma.$disconnect().catch(() => undefined);
    },
  };
}

/** start → end: the run the warm-up makes in memory, touching no database and no outside service. */
const warmUpWorkflow = {
  version: 1,
  name: "worker warm-up",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "text", type: "string", required: true }] } },
    { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "text", target: "end", targetHandle: "result" }],
};

/**
 * What every run needs and the first one would otherwise pay for (about a
 * second at load): the node catalogue and the sandbox (createLocalEnvironment
 * caches both per process), the engine's code path through one start → end
 * run in memory, and a first round trip on each database connection.
 */
async function warmUp(db: SqlDatabase, prisma: PrismaClient, options: WorkerRuntimeOptions): Promise<void> {
  const engine = async () => {
    if (options.environment) return;
    const env = await createLocalEnvironment({ nodesDir: runNodesDir(options.nodesDir) });
    const parsed = parseWorkflow(warmUpWorkflow);
    if (parsed.ok) await runWorkflow({ runId: `warm-up-${randomUUID()}`, workflowId: null, workflow: parsed.workflow, input: { text: "warm" }, sink: new MemorySink(), env });
  };
  await Promise.all([engine(), db.query("SELECT 1"), prisma.$queryRawUnsafe("SELECT 1")]);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

/** The Run of an outside host's service call (answered at once by the web process that took it). */
function isOutsideServiceCall(input: Record<string, unknown>): boolean {
  const host = input.mcpHost as { kind?: unknown } | undefined;
  return host !== null && typeof host === "object" && host.kind === "service";
}

/** A run's environment; a test run's answers from the cassette stored with it. */
async function runEnvironmentOf(db: SqlDatabase, runId: string, origin: string | null, build: () => Promise<EngineEnvironment>): Promise<EngineEnvironment> {
  const env = await build();
  if (parseRunOrigin(origin)?.kind !== "test") return env;
  const cassette = await readCassette(db, runId);
  return cassette ? cassetteEnvironment(env, cassette) : env;
}

/** Runs one claimed run from its row: the frozen document, its input, its journal. */
function executor(db: SqlDatabase, prisma: PrismaClient, environment: (workflowId: string | null) => Promise<EngineEnvironment>, log?: (line: string) => void, announce?: (runId: string) => void): ExecuteRun {
  return async (claimed, signals) => {
    // Through the journal's SQL, not Prisma: one plain read, a trivial run's largest fixed cost otherwise.
    const [row] = await db.query<{ document: string; input: string; workflowId: string | null; startedAt: unknown; origin: string | null }>(
      `SELECT "document", "input", "workflowId", "startedAt", "origin" FROM "Run" WHERE "id" = ?`,
      [claimed.runId],
    );
    if (!row) return "finished";
    const run = { ...row, startedAt: new Date(isoFromSql(row.startedAt)) };
    const parsed = parseWorkflow(JSON.parse(run.document));
    if (!parsed.ok || claimed.resumeCount > maxResumes) {
      const error = parsed.ok ? `the run was resumed ${claimed.resumeCount} times without finishing; it was stopped` : `the run's document is not a workflow: ${parsed.problems[0]?.message}`;
      await db.execute(`UPDATE "Run" SET "status" = 'failed', "error" = ?, "endedAt" = ?, "leaseExpiresAt" = NULL WHERE "id" = ?`, [error, sqlTime(new Date(), db.dialect), claimed.runId]);
      await settleTasksOfRun(prisma, claimed.runId);
      return "finished";
    }
    const input = JSON.parse(run.input) as Record<string, unknown>;
    if (isOutsideServiceCall(input)) {
      // Served by a web process, not by workers: its lease ran out, so that process died with the host's request; nothing can answer it now.
      const error = "the web process serving this outside call stopped, and the host's request with it; the host may call again";
      await db.execute(`UPDATE "Run" SET "status" = 'failed', "error" = ?, "endedAt" = ?, "leaseExpiresAt" = NULL WHERE "id" = ? AND "workerId" = ? AND "resumeCount" = ?`, [error, sqlTime(new Date(), db.dialect), claimed.runId, claimed.workerId, claimed.resumeCount]);
      return "finished";
    }
    // An outside MCP host's task call: the Task Start's sub-flow, nested under the call's row, which is written once it ends.
    const outside = outsideTaskOf(input);
    // Fenced by the claim: once another worker has taken the run over, this one can write nothing more of it.
    const journal = await DatabaseRunJournal.open(db, claimed.runId, { workerId: claimed.workerId, resumeCount: claimed.resumeCount });
    const held = outside ? new HeldEndSink(journal) : undefined;
    const history = await readChatHistory(db, claimed.runId);
    try {
      const outcome = await runWorkflow({
        runId: claimed.runId,
        workflowId: run.workflowId,
        workflow: parsed.workflow,
        input,
        // Also exported live as OpenTelemetry spans when OTEL_EXPORTER_OTLP_ENDPOINT is set.
        sink: withOtelExport(held ?? journal, { workflowName: parsed.workflow.name, origin: parseRunOrigin(run.origin) }, await otelExportFromEnv()),
        journal,
        env: await runEnvironmentOf(db, claimed.runId, run.origin, () => environment(run.workflowId)),
        ...(history ? { chat: { history } } : {}),
        // Someone watches a canvas run from its start: its agents' text goes out live (docs/runs.md, Live text).
        ...(parseRunOrigin(run.origin)?.kind === "canvas" ? { liveText: true } : {}),
        signal: signals.cancel,
        stopSignal: signals.stop,
        ...(outside ? { task: outsideTaskRequest(claimed.runId, outside) } : {}),
      });
      if (outside) await held!.finish({ prisma, call: outside, startedAt: run.startedAt });
      // The notice goes out beside the run, never holding it up; a failure is logged.
      if (outcome.status === "needs-attention") announce?.(claimed.runId);
      if (outcome.status !== "interrupted") return "finished";
      log?.(`run ${claimed.runId} stopped unfinished: ${outcome.error}`);
      return "interrupted";
    } catch (error) {
      // The run's start or end could not be written (the database went away): it is taken up again once it is back.
      log?.(`run ${claimed.runId} stopped unfinished: ${(error as Error).message.split("\n")[0]}`);
      return "interrupted";
    }
  };
}
