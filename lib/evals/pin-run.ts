import { createHash } from "node:crypto";
import type { ModelTurn } from "../ai";
import type { RecordedModelTurn } from "../engine";
import { lookupNodeType, type NodeTypes, parseWorkflow, type Workflow } from "../graph";
import { type RunTrace, type ModelContext, redactSecrets } from "../trace";
import { caseModelRequest, type HistoryTurn } from "./model-request";
import { caseFormat, type CaseNodeRun, type CassetteCall, type CassetteStep, type CassetteTurn, type TestCase } from "./test-case";

/** Why a run cannot be kept as a test case, said to the person who asked. */
export class PinError extends Error {
  override name = "PinError";
  constructor(
    readonly code: "run-not-found" | "run-not-finished" | "not-a-workflow",
    message: string,
  ) {
    super(message);
  }
}

/** What a pin reads of a recorded run, whatever database it lives in. */
export interface PinSource {
  trace: RunTrace;
  /** The frozen document the run ran (JSON text). */
  document: string;
  /** The run's journal entries: model turns, tool calls, the model contexts they name. */
  steps: ReadonlyArray<{ key: string; kind: string; value: unknown }>;
  /** The saved version of the workflow whose document is the one the run ran, when there is one. */
  savedVersion: number | null;
}

export interface PinOptions {
  name?: string;
  nodeTypes: NodeTypes;
  /** Values to redact besides what the trace redacted when it was written (credential values). */
  secrets?: readonly string[];
  now?: () => Date;
}

/**
 * A finished run as a test case: its input and End outputs, each top-level
 * node run with its model turns (and the request each was asked, rebuilt
 * from the run's document and journal) and tool calls (with the outcome the
 * model was handed), secrets redacted, and the default assertions: the End
 * outputs are equal, and the same tool calls come in the same order with
 * equal arguments. Calls inside a Task's sub-flow are answered by the Task
 * call's recorded result, so the sub-flow's own node runs are left out.
 */
export function pinRun(source: PinSource, options: PinOptions): TestCase {
  const { trace } = source;
  const run = trace.run;
  if (run.status !== "completed") throw new PinError("run-not-finished", `run "${run.id}" is ${run.status}: only a completed run can be kept as a test case`);
  const parsed = parseWorkflow(JSON.parse(source.document));
  if (!parsed.ok) throw new PinError("not-a-workflow", `run "${run.id}" ran a document that is not a workflow: ${parsed.problems[0]?.message ?? "unreadable"}`);
  const workflow = parsed.workflow;
  const journal = new Map(source.steps.map((step) => [step.key, step]));
  const occurrences = new Map<string, number>();
  const nodes: CaseNodeRun[] = [];
  for (const nodeRun of trace.nodeRuns.filter((candidate) => candidate.parentToolCallId === null)) {
    const occurrence = (occurrences.get(nodeRun.nodeId) ?? 0) + 1;
    occurrences.set(nodeRun.nodeId, occurrence);
    const key = `${nodeRun.nodeId}#${occurrence}`;
    const node = workflow.nodes.find((candidate) => candidate.id === nodeRun.nodeId);
    nodes.push({
      key,
      node: nodeRun.nodeId,
      type: nodeRun.nodeType,
      status: nodeRun.status,
      inputs: nodeRun.inputs,
      outputs: nodeRun.outputs,
      error: nodeRun.error,
      steps: stepsOf(key, nodeRun.id, nodeRun.inputs, node ? configOf(node, options.nodeTypes) : {}, trace, journal),
    });
  }
  const calls = nodes.flatMap((node) => node.steps.filter((step): step is CassetteCall => step.kind === "tool-call"));
  const testCase: TestCase = {
    format: caseFormat,
    name: options.name ?? `${run.workflowName}: ${firstText(run.input) ?? run.id}`,
    workflow: {
      id: run.workflowId,
      name: run.workflowName,
      documentVersion: workflow.version,
      savedVersion: source.savedVersion,
      documentHash: documentHash(workflow),
      serverNodes: [...new Set(calls.map((call) => call.server))].filter((server) => workflow.nodes.some((node) => node.id === server)),
    },
    pinnedFrom: { runId: run.id, pinnedAt: (options.now?.() ?? new Date()).toISOString() },
    input: run.input,
    outputs: run.outputs,
    nodes,
    assertions: {
      outputs: [{ kind: "exact" }],
      toolCalls: calls.map((call) => ({ key: call.key, tool: `${call.server}/${call.tool}`, arguments: [{ kind: "exact" }] })),
      modelRequests: [],
    },
  };
  return redactCase(testCase, options.secrets ?? []);
}

/** A short, stable hash of a document's meaning (its JSON), to tell in review whether a case was pinned from the document at hand. */
export function documentHash(workflow: Workflow): string {
  return createHash("sha256").update(JSON.stringify({ nodes: workflow.nodes, edges: workflow.edges })).digest("hex").slice(0, 16);
}

/** A node's config as its agent reads it: its type's defaults under what the node sets. */
function configOf(node: Workflow["nodes"][number], nodeTypes: NodeTypes): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(lookupNodeType(nodeTypes, node.type)?.configSchema?.properties ?? {})) {
    const declared = (property as { default?: unknown }).default;
    if (declared !== undefined) defaults[name] = declared;
  }
  return { ...defaults, ...node.config };
}

/** A node run's turns and calls, in the order they came (each turn before the calls it asked for). */
function stepsOf(key: string, nodeRunId: string, inputs: Record<string, unknown>, config: Record<string, unknown>, trace: RunTrace, journal: ReadonlyMap<string, { kind: string; value: unknown }>): CassetteStep[] {
  const steps: CassetteStep[] = [];
  let previous: HistoryTurn | null = null;
  const rows = new Map(trace.toolCalls.filter((row) => row.nodeRunId === nodeRunId && row.stepKey).map((row) => [row.stepKey!, row]));
  for (let turn = 1; ; turn++) {
    const turnKey = `${key}/t${turn}`;
    const entry = journal.get(turnKey);
    if (!entry || entry.kind !== "model-turn") break;
    const recorded = entry.value as RecordedModelTurn;
    const context = recorded.row?.contextKey ? (journal.get(recorded.row.contextKey)?.value as ModelContext | undefined) : undefined;
    if (previous) previous.results = (recorded.sent?.results ?? []).map((result) => ({ name: result.name, isError: result.isError }));
    steps.push(turnStep(turnKey, recorded, caseModelRequest({ config, instructions: context?.instructions ?? "", inputs, previous, tools: context?.tools ?? [] })));
    previous = { text: recorded.turn.text, toolCalls: recorded.turn.toolCalls.map((call) => ({ name: call.name, arguments: call.input })), results: [] };
    recorded.turn.toolCalls.forEach((_call, index) => {
      const callKey = `${turnKey}/c${index}`;
      const row = rows.get(callKey);
      const outcome = (journal.get(callKey)?.value as { outcome?: { output: string; isError: boolean; structured?: unknown } } | undefined)?.outcome;
      if (!row || !outcome) return;
      steps.push({
        kind: "tool-call",
        key: callKey,
        server: row.server,
        tool: row.tool,
        arguments: row.arguments,
        output: outcome.output,
        isError: outcome.isError,
        ...(outcome.structured === undefined ? {} : { structured: outcome.structured }),
        result: row.result,
        error: row.error,
      });
    });
  }
  return steps;
}

function turnStep(key: string, recorded: RecordedModelTurn, request: CassetteTurn["request"]): CassetteTurn {
  const turn: ModelTurn = recorded.turn;
  return {
    kind: "model-turn",
    key,
    model: recorded.row?.model ?? turn.modelId ?? recorded.model.protocol,
    request,
    answer: {
      text: turn.text,
      toolCalls: turn.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments: call.input ?? {},
        // The model's own text, when it is not what the parsed arguments print as.
        ...(call.arguments === JSON.stringify(call.input ?? {}) ? {} : { argumentsText: call.arguments }),
      })),
      ...(turn.finishReason ? { finishReason: turn.finishReason } : {}),
      ...(turn.usage ? { usage: turn.usage } : {}),
    },
  };
}

/** A key whose value is a secret whatever it holds. */
const secretKey = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|client[-_]?secret|password|secret|token)$/i;

/**
 * The case with every known secret value replaced (the trace was redacted
 * when written; this also covers credentials stored since) and every value
 * under a secret-named key (authorization, apiKey, token…) hidden.
 */
export function redactCase(testCase: TestCase, secrets: readonly string[]): TestCase {
  const hidden = hideSecretKeys(testCase) as TestCase;
  return redactSecrets(hidden, secrets);
}

function hideSecretKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideSecretKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secretKey.test(key) && typeof item === "string" && item !== "" ? "[redacted]" : hideSecretKeys(item)]));
}

function firstText(input: Record<string, unknown>): string | undefined {
  const text = Object.values(input).find((value): value is string => typeof value === "string" && value.trim() !== "");
  return text && text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
