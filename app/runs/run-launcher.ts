import "server-only";
import { randomUUID } from "node:crypto";
import { prisma, toJsonText } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { requestCancel } from "@/lib/db/database-run-queue";
import { recordAttentionChoice, type ChoiceResult } from "@/lib/db/attention-choice";
import { type DecisionInput, type DecisionResult, denyExpiredApprovals, listWaitingApprovals, recordApprovalDecision, type WaitingApproval } from "@/lib/db/approvals";
import { databaseUrl } from "@/lib/db/database-url";
import { isPostgresUrl, openSqlDatabase } from "@/lib/db/sql/open-database";
import type { WakeSource } from "@/lib/db/database-run-queue";
import { pgBossWakes } from "@/lib/db/postgres/pg-boss-wakes";
import type { SqlDatabase } from "@/lib/db/sql/sql-database";
import type { AttentionChoice } from "@/lib/engine/journal/run-journal";
import { forkRun, type ForkRequest, type ForkResult, readForkLinks, type ForkLinks } from "@/lib/db/run-fork";
import { lookupNodeType, parseWorkflow, type Workflow } from "@/lib/graph";
import { createLocalEnvironment } from "@/lib/engine/local-environment";
import type { ForkOptions } from "@/components/run/fork-panel";

/**
 * The web side of the run queue: a run started here is written as queued
 * and a worker takes it (the embedded one in this process on SQLite, any
 * `npm run worker` on Postgres). Cancel and a person's choice go through the
 * database too, so they reach a run whichever process runs it.
 *
 * The handles live on globalThis: Next may load this module more than once.
 */
const holder = globalThis as typeof globalThis & { switchboardRunDatabase?: SqlDatabase; switchboardWakeWorker?: () => void; switchboardPgBoss?: Promise<WakeSource> };

/** On Postgres, pg-boss tells the workers at once; they would find the run on their next poll anyway. */
function notifyWorkers(runId: string): void {
  holder.switchboardWakeWorker?.();
  if (!isPostgresUrl(databaseUrl())) return;
  holder.switchboardPgBoss ??= pgBossWakes(databaseUrl(), { work: false });
  holder.switchboardPgBoss.then((boss) => boss.notify?.(runId)).catch((error: unknown) => console.warn(`run ${runId}: pg-boss could not wake the workers (${(error as Error).message}); they find it by polling`));
}

/** The run queue's database, for the answer and decision functions of lib/db. */
export function runQueueDatabase(): SqlDatabase {
  return runDatabase();
}

/** Tells the workers a run was queued again (an answer, a decision). */
export function wakeWorkers(runId: string): void {
  notifyWorkers(runId);
}

function runDatabase(): SqlDatabase {
  holder.switchboardRunDatabase ??= openSqlDatabase(databaseUrl());
  return holder.switchboardRunDatabase;
}

export interface LaunchRequest {
  workflowId: string;
  workflow: Workflow;
  input: Record<string, unknown>;
}

export interface LaunchOptions {
  /** The run's id (default: a fresh one). */
  runId?: string;
  /** Writes committed in one transaction with the Run row (an outside host's task linked to its run). */
  together?: readonly Prisma.PrismaPromise<unknown>[];
}

/** Writes the Run row as queued (the document frozen), wakes a worker, and returns the run's id at once. */
export async function launchRun(request: LaunchRequest, options: LaunchOptions = {}): Promise<string> {
  const runId = options.runId ?? randomUUID();
  const create = prisma().run.create({
    data: { id: runId, workflowId: request.workflowId, document: toJsonText(request.workflow), input: toJsonText(request.input), status: "queued" },
  });
  if (options.together?.length) await prisma().$transaction([create, ...options.together]);
  else await create;
  notifyWorkers(runId);
  return runId;
}

/** Asks a run to stop, from this process or any other: see requestCancel. */
export async function abortRun(runId: string): Promise<"cancelled" | "requested" | "ended" | "unknown"> {
  return requestCancel(runDatabase(), runId);
}

/** A person's choice for the call a needs-attention run waits on; the run is queued again. */
export async function chooseForAttention(runId: string, choice: AttentionChoice, shown?: string): Promise<ChoiceResult> {
  const result = await recordAttentionChoice(runDatabase(), runId, choice, new Date(), shown);
  if (result.ok) notifyWorkers(runId);
  return result;
}

/** The calls waiting for approval across runs, after denying those past their deadline (as the command line does). */
export async function waitingApprovals(): Promise<WaitingApproval[]> {
  for (const runId of await denyExpiredApprovals(runDatabase())) notifyWorkers(runId);
  return listWaitingApprovals(runDatabase());
}

/** A person's decision on a waiting call; on success its run is queued again and a worker takes it up. */
export async function decideWaitingCall(callId: string, input: DecisionInput): Promise<DecisionResult> {
  const result = await recordApprovalDecision(runDatabase(), callId, input);
  if (result.ok) notifyWorkers(result.runId);
  return result;
}

/** Forks a finished run at one of its steps (see forkRun): the fork is queued like any run, and a worker is woken for it. */
export async function launchFork(request: ForkRequest): Promise<ForkResult> {
  const needsNodeTypes = request.prompt !== undefined || request.model !== undefined || request.document !== undefined;
  const result = await forkRun(runDatabase(), request, needsNodeTypes ? { nodeTypes: (await createLocalEnvironment({ nodesDir: process.env.SWITCHBOARD_NODES_DIR })).nodeTypes } : {});
  if (result.ok) notifyWorkers(result.runId);
  return result;
}

/**
 * What the run page's fork editor may offer beside an edited answer: per
 * agent node of the run's document, its current system prompt and model
 * (null when its type has no such setting), and whether the run's workflow
 * has a current saved version to fork onto.
 */
export async function forkOptionsOf(runId: string): Promise<ForkOptions> {
  const [run] = await runDatabase().query<{ document: string; workflowId: string | null }>(`SELECT "document", "workflowId" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return { agents: {}, currentVersion: false };
  const [workflow] = run.workflowId ? await runDatabase().query<{ id: string }>(`SELECT "id" FROM "Workflow" WHERE "id" = ?`, [run.workflowId]) : [];
  const parsed = parseWorkflow(JSON.parse(run.document));
  if (!parsed.ok) return { agents: {}, currentVersion: Boolean(workflow) };
  const { nodeTypes } = await createLocalEnvironment({ nodesDir: process.env.SWITCHBOARD_NODES_DIR });
  const agents: ForkOptions["agents"] = {};
  for (const node of parsed.workflow.nodes) {
    const info = lookupNodeType(nodeTypes, node.type);
    if (!info?.hasToolExchange) continue;
    const setting = (name: string) => {
      const declared = info.configSchema?.properties?.[name] as { default?: unknown } | undefined;
      if (!declared) return null;
      const value = node.config[name] ?? declared.default;
      return typeof value === "string" ? value : "";
    };
    agents[node.id] = { systemPrompt: setting("systemPrompt"), model: setting("model") };
  }
  return { agents, currentVersion: Boolean(workflow) };
}

/** The run a run was forked from, and the forks of it. */
export async function forkLinksOf(runId: string): Promise<ForkLinks> {
  return readForkLinks(runDatabase(), runId);
}
