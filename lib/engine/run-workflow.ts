import { createRunState, type Workflow, validateRunInput, validateWorkflow } from "../graph";
import { checkArguments } from "../manifest";
import { type AgentTool, RunMemory } from "../tools";
import { redactingSink, redactSecrets, type RunSink, type RunStatus, TaintRegistry } from "../trace";
import type { EngineEnvironment } from "./environment";
import { preflightMessage, preflightTools } from "./preflight";
import { ResourceScope } from "./resource-scope";
import type { RunContext, TaskOutcome, TaskRequest } from "./run-context";
import { runGraph } from "./run-graph";
import { memoryJournal } from "./journal/memory-journal";
import type { RunJournal } from "./journal/run-journal";
import { type AttentionRequest, RunInterruption, StepRecorder } from "./journal/step-recorder";
import type { ChatHistoryTurn } from "./chat/chat-history";
import { endRunText } from "../run-model";

export interface RunRequest {
  runId: string;
  workflowId: string | null;
  workflow: Workflow;
  input: Record<string, unknown>;
  sink: RunSink;
  /**
   * The run's journal: what it holds is replayed (a resumed run), new steps
   * are recorded before the next begins, each with its trace rows. Default:
   * a journal in memory whose rows go to the sink (a run nothing resumes).
   */
  journal?: RunJournal;
  env: EngineEnvironment;
  /**
   * The run is a turn of a chat thread: the thread's earlier turns, oldest
   * first. Each agent reads them as messages, cut to its window
   * (`historyTurns`, `historyTokens`), and its model's text goes out live
   * (lib/run-model's run text feed) as well as into the journal.
   */
  chat?: { history: readonly ChatHistoryTurn[] };
  /**
   * A person watches the run as it goes (it was started from the canvas):
   * each agent's text goes out live from its start, before the page that
   * follows it may have begun listening. Otherwise an agent writes live only
   * when someone follows the run when it starts (a chat turn always does).
   */
  liveText?: boolean;
  /** Cancels the run: it ends cancelled. */
  signal?: AbortSignal;
  /**
   * Stops the run at its next step, unfinished (the worker is stopping or
   * lost the run): the steps in flight finish and are recorded, nothing new
   * starts, and the outcome is `interrupted`, to be resumed elsewhere.
   */
  stopSignal?: AbortSignal;
  /**
   * Runs one Task Start's sub-flow instead of the workflow's own graph: an
   * outside MCP host called the task (app/api/mcp). `input` is then only
   * recorded on the run; `task.args` are the call's arguments, checked
   * against the Task Start's fields, and the sub-flow's node runs nest under
   * the call's trace row (`parentToolCallId`). The Task End's value becomes
   * the run's `result` output.
   */
  task?: { taskStartId: string; args: Record<string, unknown>; parentToolCallId: string };
}

export interface RunOutcome {
  /**
   * needs-attention: a call waits for a person (recorded with the run's end);
   * interrupted: the journal could not be written, nothing more was recorded,
   * and the run must be resumed once the store is back.
   */
  status: Exclude<RunStatus, "running" | "queued"> | "interrupted";
  outputs: Record<string, unknown>;
  error: string | null;
  attention?: AttentionRequest;
  /** How many steps were taken from the journal instead of being run. */
  replayed?: number;
}

/**
 * Runs a workflow to its end and reports everything to the sink: the run,
 * each node run, each tool call. A bad graph or a bad input ends the run as
 * failed with the problems named; nothing throws for the user's mistakes.
 * Every connection the run opened is closed at the end, whatever happened.
 */
export async function runWorkflow(request: RunRequest): Promise<RunOutcome> {
  const secrets = new Set<string>();
  const recorder = new StepRecorder(request.runId, request.journal ?? memoryJournal(request.sink), (value) => redactSecrets(value, [...secrets]));
  request.stopSignal?.addEventListener("abort", () => recorder.stop(new RunInterruption("paused", "the worker stopped holding the run; it resumes on another")), { once: true });
  // Redacted first, then a journalled step's rows wait for their step.
  const sink = redactingSink(recorder.sink(request.sink), () => [...secrets]);
  const resources = new ResourceScope();
  const controller = new AbortController();
  const forward = () => controller.abort();
  request.signal?.addEventListener("abort", forward, { once: true });
  try {
    await sink.runStart({ runId: request.runId, workflowId: request.workflowId, input: request.input, startedAt: new Date().toISOString() });
  } catch (error) {
    request.signal?.removeEventListener("abort", forward);
    await disposeEnvironment(request.env);
    throw error;
  }
  let outcome: RunOutcome;
  try {
    outcome = await execute(request, { secrets, sink, resources, recorder, signal: controller.signal });
  } catch (error) {
    outcome = { status: "failed", outputs: {}, error: `the engine failed: ${(error as Error).message}` };
  } finally {
    request.signal?.removeEventListener("abort", forward);
    endRunText(request.runId);
    await resources.closeAll();
    await disposeEnvironment(request.env);
  }
  if (recorder.replayed > 0) outcome.replayed = recorder.replayed;
  if (outcome.status === "interrupted") {
    // Whoever takes the run next starts from what is durable: the steps still behind are committed first (or redone, if the database is gone).
    await recorder.flush().catch(() => undefined);
    return outcome;
  }
  await sink.runEnd({ runId: request.runId, status: outcome.status, outputs: outcome.outputs, error: outcome.error, endedAt: new Date().toISOString(), ...(outcome.attention ? { attention: outcome.attention } : {}) });
  return outcome;
}

async function execute(request: RunRequest, parts: Pick<RunContext, "secrets" | "sink" | "resources" | "signal" | "recorder">): Promise<RunOutcome> {
  const { workflow, env } = request;
  const problems = validateWorkflow(workflow, env.nodeTypes, { validateConfig: configValidator }).filter((problem) => problem.severity === "error");
  if (problems.length) return { status: "failed", outputs: {}, error: `the workflow has problems: ${problems.map((problem) => problem.message).join("; ")}` };
  const input = request.task ? { ok: true as const, values: {} } : validateRunInput(workflow, request.input);
  if (!input.ok) return { status: "failed", outputs: {}, error: `the input is not valid: ${input.problems.map((problem) => problem.message).join("; ")}` };
  const manifests = new Map(env.catalogue.nodes.flatMap((node) => (node.manifest ? [[node.name, node.manifest] as const] : [])));
  const declaredTools = new Map<string, readonly AgentTool[]>();
  const context: RunContext = {
    ...parts,
    runId: request.runId,
    workflowId: request.workflowId,
    workflow,
    env,
    taint: new TaintRegistry(request.runId, { emit: (record) => parts.sink.taintRecord?.(record) }),
    memory: new RunMemory(),
    loops: new Map(),
    declaredTools,
    ...(request.chat ? { chat: request.chat } : {}),
    ...(request.liveText ? { liveText: true } : {}),
    manifestOf: (type) => manifests.get(type),
    runTask: (task) => runTask(task, context),
  };
  // Fail at start: every declared tool must resolve before any node (and any model) runs.
  const preflight = await preflightTools(context);
  if (!preflight.ok) return { status: "failed", outputs: {}, error: preflightMessage(preflight.problems) };
  for (const [nodeId, tools] of preflight.tools) declaredTools.set(nodeId, tools);
  if (request.task) {
    const task = await runTask(request.task, context);
    if (parts.recorder.interruption) return interruptedOutcome(parts.recorder.interruption);
    if (parts.signal.aborted) return { status: "cancelled", outputs: {}, error: "the run was cancelled" };
    return task.ok ? { status: "completed", outputs: { result: task.result }, error: null } : { status: "failed", outputs: {}, error: task.message };
  }
  const outcome = await runGraph(createRunState(workflow, env.nodeTypes), context, { entryValues: input.values, parentToolCallId: null });
  if (outcome.interruption) return interruptedOutcome(outcome.interruption);
  if (outcome.cancelled) return { status: "cancelled", outputs: {}, error: outcome.error };
  return { status: outcome.ok ? "completed" : "failed", outputs: { result: outcome.result }, error: outcome.error };
}

/**
 * One call of a task: its sub-flow runs with the call's arguments as the Task Start's fields.
 * `chain` holds the Task Starts already running above this call: re-entering one is refused,
 * since a task whose sub-flow can call itself (directly or through another task) would nest
 * without end.
 */
async function runTask(task: TaskRequest, context: RunContext, chain: readonly string[] = []): Promise<TaskOutcome> {
  const taskStart = context.workflow.nodes.find((node) => node.id === task.taskStartId);
  if (!taskStart) return { ok: false, message: `no Task Start '${task.taskStartId}'` };
  if (chain.includes(task.taskStartId)) {
    return { ok: false, message: `not run: the task '${task.taskStartId}' is already running further up this call chain (${[...chain, task.taskStartId].join(" → ")}); a task cannot call itself` };
  }
  const checked = validateRunInput({ nodes: [{ ...taskStart, type: "start" }] }, task.args);
  if (!checked.ok) return { ok: false, message: `invalid arguments: ${checked.problems.map((problem) => problem.message).join("; ")}` };
  // A task cancelled on its own (tasks/cancel) stops its sub-flow, not the whole run.
  const signal = task.signal ? AbortSignal.any([context.signal, task.signal]) : context.signal;
  const inner: RunContext = { ...context, signal, runTask: (next) => runTask(next, inner, [...chain, task.taskStartId]) };
  const outcome = await runGraph(createRunState(context.workflow, context.env.nodeTypes, { taskStartId: task.taskStartId }), inner, {
    entryValues: checked.values,
    parentToolCallId: task.parentToolCallId,
  });
  return outcome.ok ? { ok: true, result: outcome.result } : { ok: false, message: outcome.error ?? "the task failed" };
}

/** The environment's own teardown (MCP sessions): best effort, the run is over either way. */
async function disposeEnvironment(env: EngineEnvironment): Promise<void> {
  try {
    await env.dispose?.();
  } catch {
    // A session that fails to close is gone with the process; the run's outcome stands.
  }
}

/** Config values are checked with the same JSON Schema validator as tool arguments. */
function configValidator(schema: object, value: unknown): string | null {
  const checked = checkArguments(schema, value);
  return checked.ok ? null : checked.message;
}

function interruptedOutcome(interruption: { reason: string; message: string; attention?: AttentionRequest }): RunOutcome {
  if (interruption.reason === "needs-attention" && interruption.attention) return { status: "needs-attention", outputs: {}, error: interruption.message, attention: interruption.attention };
  return { status: "interrupted", outputs: {}, error: interruption.message };
}
