import { createHash, randomUUID } from "node:crypto";
import { changedNodes, checkForkDocument, forkIdMap, type ForkProblem, type ForkSource, planFork, type RecordedStep, replayedNodesChanged, withAgentSetting, withMappedIds } from "../engine";
import { type ForkChange, readForkChange } from "../run-model/fork-change";
import { validateConfig } from "../canvas/config-check";
import { type NodeTypes, parseWorkflow, type Workflow } from "../graph";
import { toJsonText } from "./json-text";
import { addTurn, emptyDelta, totalStatements, turnFactsOf, turnStepColumns, turnStepValues } from "./run-aggregates";
import { queuedRunInsert } from "./queued-runs";
import { isoFromSql, type SqlDatabase, type SqlStatement } from "./sql/sql-database";

export interface ForkRequest {
  /** The run to fork. */
  runId: string;
  /** The journal key of the step to fork at, e.g. `agent#1/t3/c0`. */
  at: string;
  /** The forked step's new value as JSON text (a tool call's result, a model turn's answer, a step node's outputs); none: as recorded. */
  result?: string;
  /** The agent's system prompt from the fork point on (the agent whose step `at` is). */
  prompt?: string;
  /** The agent's model id from the fork point on. */
  model?: string;
  /** Another document: the workflow's current saved version, or a document's JSON text (a file). */
  document?: { source: "workflow" } | { source: "file"; text: string };
  /** Who forked it (the fork's origin names them). */
  by?: string;
}

/** What a prompt, model or document fork needs to know of node types (which nodes are agents, with which settings). */
export interface ForkContext {
  nodeTypes?: NodeTypes;
}

export type ForkResult = { ok: true; runId: string; change: ForkChange } | { ok: false; field: "runId" | "change" | ForkProblem["field"]; error: string };

const changeOptions = ["result", "prompt", "model", "document"] as const;

/** Runs still being worked on: their journal is not final, so a fork of them would copy a moving target. */
const unfinished = new Set(["queued", "running"]);

type Row = Record<string, unknown>;

/**
 * Forks a finished run at one of its steps: a new run of the same document
 * and input, queued, whose journal is the parent's up to and including that
 * step (see planFork), with the step's value replaced when `result` is
 * given. A worker takes it up as it would a resumed run: everything before
 * the fork point is replayed (no model, no tool is called), and the run goes
 * on live from there. The copied trace rows get the fork's own ids. One
 * transaction: a refusal or a failure creates nothing.
 *
 * One change at most: `result` (the step's value), `prompt` / `model` (the
 * step's agent's setting in the fork's document, from the fork point on),
 * or `document` (another document, whose nodes with replayed steps must be
 * unchanged: see replayedNodesChanged). With a prompt, model or document
 * the forked model turn or step result is run again rather than replayed.
 * The change is kept in `Run.forkChange`.
 *
 * @example
 * await forkRun(db, { runId, at: "agent#1/t3/c0", result: '{"total": 0}' }) // { ok: true, runId: "…" }
 */
export async function forkRun(db: SqlDatabase, request: ForkRequest, context: ForkContext = {}): Promise<ForkResult> {
  const given = changeOptions.filter((option) => request[option] !== undefined);
  if (given.length > 1) return { ok: false, field: "change", error: `Choose one change per fork: ${given.join(" and ")} were both given (a tool result or answer, a prompt, a model, or a document).` };
  const [run] = await db.query<{ status: string; document: string; input: string; workflowId: string | null }>(`SELECT "status", "document", "input", "workflowId" FROM "Run" WHERE "id" = ?`, [request.runId]);
  if (!run) return { ok: false, field: "runId", error: `There is no run "${request.runId}".` };
  if (unfinished.has(run.status)) return { ok: false, field: "runId", error: `Run ${request.runId} is still ${run.status}: fork it once it has ended (or cancel it first).` };
  const changed = await changedDocument(db, run, request, context);
  if (!changed.ok) return changed;
  let edit: { value: unknown } | undefined;
  if (request.result !== undefined) {
    try {
      edit = { value: JSON.parse(request.result) };
    } catch (error) {
      return { ok: false, field: "result", error: `The result is not JSON (${(error as Error).message}); a text result is written as a JSON string, e.g. "\\"no orders\\"".` };
    }
  }
  const [steps, calls, nodeRuns, taint] = await Promise.all([
    db.query<Row>(`SELECT * FROM "RunStep" WHERE "runId" = ?`, [request.runId]),
    db.query<Row>(`SELECT * FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`, [request.runId]),
    db.query<Row>(`SELECT * FROM "NodeRun" WHERE "runId" = ?`, [request.runId]),
    db.query<Row>(`SELECT * FROM "TaintRecord" WHERE "runId" = ?`, [request.runId]),
  ]);
  const sources: ForkSource[] = [
    ...steps.map((row) => ({ key: String(row.key), kind: row.kind as RecordedStep["kind"], value: JSON.parse(String(row.value)), recordedAt: isoFromSql(row.recordedAt), sequence: Number(row.sequence ?? 0) })),
    ...calls
      .filter((row) => row.stepKey !== null && row.outcome !== null)
      .map((row) => ({ key: String(row.stepKey), kind: "tool-call" as const, value: JSON.parse(String(row.outcome)), recordedAt: new Date(new Date(isoFromSql(row.startedAt)).getTime() + Number(row.durationMs)).toISOString(), sequence: Number(row.sequence ?? 0) })),
  ];
  const plan = planFork(sources, request.at, edit, { reask: changed.document !== null });
  if (!plan.ok) return { ok: false, field: plan.problem.field, error: capitalized(plan.problem.message) };
  if (changed.document && changed.change.kind === "document") {
    const refusal = replayedNodesChanged(changed.parent, changed.document, plan.steps.filter((step) => step.kind !== "model-context").map((step) => step.key), request.at);
    if (refusal) return { ok: false, field: refusal.field, error: refusal.message };
  }
  const change: ForkChange = changed.document ? changed.change : edit === undefined ? { kind: "none" } : { kind: "result" };

  const forkId = randomUUID();
  const { ids, key: mapKey } = forkIdMap(request.runId, forkId, plan.steps.map((step) => step.key));
  const kept = new Map(plan.steps.map((step) => [step.key, step]));
  const sequenceOf = new Map(sources.map((source) => [source.key, source.sequence]));
  // …and its time, which orders steps written before there was a sequence.
  const recordedAtOf = new Map(sources.map((source) => [source.key, new Date(source.recordedAt)]));
  const statements: SqlStatement[] = [
    queuedRunInsert({
      id: forkId,
      workflowId: run.workflowId,
      document: changed.document ? toJsonText(changed.document) : run.document,
      input: run.input,
      startedAt: new Date(),
      origin: { kind: "fork", parentRunId: request.runId, ...(request.by ? { by: request.by } : {}) },
      fork: { fromRunId: request.runId, atStep: request.at, change: toJsonText(change) },
    }),
  ];
  for (const row of nodeRuns) {
    if (!ids.has(String(row.id))) continue;
    statements.push(insert("NodeRun", { ...row, id: ids.get(String(row.id)), runId: forkId, parentToolCallId: row.parentToolCallId === null ? null : (ids.get(String(row.parentToolCallId)) ?? row.parentToolCallId) }));
  }
  const copiedCalls = new Set<string>();
  const copiedFacts: Array<Parameters<typeof totalStatements>[1][number]> = [];
  // Each fork node run's copied calls, by write order: a copied turn's place among them.
  const copiedOrder = new Map<string, number[]>();
  for (const row of calls) {
    const step = row.stepKey === null ? undefined : kept.get(String(row.stepKey));
    if (!step || step.kind !== "tool-call") continue;
    const edited = step.key === request.at && edit !== undefined;
    copiedCalls.add(String(row.id));
    const forkNodeRunId = row.nodeRunId === null ? null : (ids.get(String(row.nodeRunId)) ?? String(row.nodeRunId));
    if (forkNodeRunId !== null) copiedOrder.set(forkNodeRunId, [...(copiedOrder.get(forkNodeRunId) ?? []), Number(row.sequence ?? 0)]);
    const outcome = withMappedIds(step.value, ids);
    copiedFacts.push({ nodeRunId: forkNodeRunId, tool: String(row.tool), isError: edited ? false : Boolean(row.isError), tainted: edited ? false : Boolean(row.tainted), durationMs: Number(row.durationMs), inputTokens: row.inputTokens === null ? null : Number(row.inputTokens), outputTokens: row.outputTokens === null ? null : Number(row.outputTokens) });
    statements.push(
      insert("ToolCall", {
        ...row,
        id: ids.get(String(row.id)) ?? stableFallback(forkId, String(row.id)),
        runId: forkId,
        nodeRunId: row.nodeRunId === null ? null : (ids.get(String(row.nodeRunId)) ?? row.nodeRunId),
        stepKey: mapKey(step.key),
        outcome: toJsonText(outcome),
        ...(edited ? { result: toJsonText(edit!.value), error: null, isError: false, tainted: false } : {}),
        attempt: 0,
      }),
    );
  }
  const turns = emptyDelta();
  for (const step of plan.steps) {
    if (step.kind === "tool-call") continue;
    const value = withMappedIds(step.value, ids);
    const sequence = sequenceOf.get(step.key) ?? 0;
    const turn = turnFactsOf(step.kind, value);
    if (turn) addTurn(turns, turn);
    const written = turn ? copiedOrder.get(turn.nodeRunId) : undefined;
    const callsBefore = turn && sequence > 0 && written ? written.filter((at) => at < sequence).length : (turn?.callsBefore ?? 0);
    const turnValues = turnStepValues(turn, callsBefore);
    // The parent's order goes with the step, so a fork of the fork keeps what came before its own fork point.
    statements.push(
      insert("RunStep", {
        runId: forkId, key: mapKey(step.key), kind: step.kind, value: toJsonText(value), attempt: 0, recordedAt: recordedAtOf.get(step.key) ?? new Date(), sequence,
        ...Object.fromEntries(turnStepColumns.map((column, index) => [column, turnValues[index]])),
      }),
    );
  }
  statements.push(...totalStatements(forkId, copiedFacts, turns));
  // Where external content went, for the copied calls: the fork's trace shows the same taint up to the fork point.
  for (const row of taint) {
    if (row.toolCallId === null || !copiedCalls.has(String(row.toolCallId)) || !ids.has(String(row.nodeRunId))) continue;
    if (edit !== undefined && calls.some((call) => call.id === row.toolCallId && call.stepKey === request.at)) continue; // a person typed that result
    statements.push(insert("TaintRecord", { ...row, id: stableFallback(forkId, String(row.id)), runId: forkId, nodeRunId: ids.get(String(row.nodeRunId)), toolCallId: ids.get(String(row.toolCallId)) ?? row.toolCallId, origins: toJsonText(withMappedIds(JSON.parse(String(row.origins ?? "[]")), ids)) }));
  }
  await db.transaction(statements);
  return { ok: true, runId: forkId, change };
}

type ChangedDocument = { ok: true; document: null } | { ok: true; document: Workflow; parent: Workflow; change: ForkChange };

/** The document a prompt, model or document fork runs instead of the parent's (null for a result fork: the parent's, as it was). */
async function changedDocument(db: SqlDatabase, run: { document: string; input: string; workflowId: string | null }, request: ForkRequest, context: ForkContext): Promise<ChangedDocument | Extract<ForkResult, { ok: false }>> {
  if (request.prompt === undefined && request.model === undefined && request.document === undefined) return { ok: true, document: null };
  const nodeTypes = context.nodeTypes;
  if (!nodeTypes) throw new Error("forkRun: a prompt, model or document fork needs the node types (context.nodeTypes)");
  const parsedParent = parseWorkflow(JSON.parse(run.document));
  if (!parsedParent.ok) return { ok: false, field: "runId", error: `Run ${request.runId}'s document no longer parses (${parsedParent.problems[0]?.message}): it cannot be forked with a change.` };
  const parent = parsedParent.workflow;
  if (request.prompt !== undefined || request.model !== undefined) {
    const setting = request.prompt !== undefined ? { setting: "systemPrompt" as const, value: request.prompt } : { setting: "model" as const, value: request.model! };
    const outcome = withAgentSetting(parent, request.at, setting, nodeTypes);
    return outcome.ok ? { ok: true, document: outcome.document, parent, change: outcome.change } : { ok: false, field: outcome.problem.field, error: outcome.problem.message };
  }
  const source = request.document!;
  let value: unknown;
  if (source.source === "workflow") {
    if (!run.workflowId) return { ok: false, field: "document", error: `Run ${request.runId} was not started from a saved workflow, so it has no current version: fork it with a document file instead.` };
    const [workflow] = await db.query<{ document: string }>(`SELECT "document" FROM "Workflow" WHERE "id" = ?`, [run.workflowId]);
    if (!workflow) return { ok: false, field: "document", error: `The workflow of run ${request.runId} has been deleted: fork it with a document file instead.` };
    value = JSON.parse(workflow.document);
  } else {
    try {
      value = JSON.parse(source.text);
    } catch (error) {
      return { ok: false, field: "document", error: `The document is not JSON (${(error as Error).message}).` };
    }
  }
  const checked = checkForkDocument(value, JSON.parse(run.input), nodeTypes, validateConfig);
  if (!checked.ok) {
    const shown = checked.problems.slice(0, 8);
    return { ok: false, field: "document", error: `The document is not a valid workflow: ${shown.join("; ")}${checked.problems.length > shown.length ? `; and ${checked.problems.length - shown.length} more` : ""}.` };
  }
  return { ok: true, document: checked.workflow, parent, change: { kind: "document", source: source.source, changedNodes: changedNodes(parent, checked.workflow) } };
}

/** Where a run came from, and where it was forked: both runs' pages show it. */
export interface ForkLinks {
  parent: { runId: string; at: string; change: ForkChange | null } | null;
  forks: Array<{ runId: string; at: string; status: string; startedAt: string; change: ForkChange | null }>;
}

export async function readForkLinks(db: SqlDatabase, runId: string): Promise<ForkLinks> {
  const [run] = await db.query<{ forkedFromRunId: string | null; forkedAtStep: string | null; forkChange: string | null }>(`SELECT "forkedFromRunId", "forkedAtStep", "forkChange" FROM "Run" WHERE "id" = ?`, [runId]);
  const forks = await db.query<{ id: string; forkedAtStep: string; status: string; startedAt: unknown; forkChange: string | null }>(`SELECT "id", "forkedAtStep", "status", "startedAt", "forkChange" FROM "Run" WHERE "forkedFromRunId" = ? ORDER BY "startedAt"`, [runId]);
  return {
    parent: run?.forkedFromRunId ? { runId: run.forkedFromRunId, at: run.forkedAtStep ?? "", change: readForkChange(run.forkChange) } : null,
    forks: forks.map((fork) => ({ runId: fork.id, at: fork.forkedAtStep, status: fork.status, startedAt: isoFromSql(fork.startedAt), change: readForkChange(fork.forkChange) })),
  };
}

function insert(table: string, row: Row): readonly [string, readonly unknown[]] {
  const columns = Object.keys(row);
  return [`INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, columns.map((column) => row[column])];
}

/** A row id with no journal key to derive it from (a taint entry): stable per fork. */
function stableFallback(forkId: string, id: string): string {
  return createHash("sha256").update(`${forkId}|${id}`).digest("hex").slice(0, 32);
}


function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
