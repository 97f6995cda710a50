import type { Workflow } from "../graph";
import { diffRuns, type DiffSource, type RunDiff, describeDiff, type NodeRunRecord, type RunOutline, type RunTrace, type ToolCallRecord, type ModelTurnLike } from "../trace";
import { cassetteMark } from "./cassette-environment";
import { brief, combineScores, type ScoreContext, scoreAll } from "./scorers";
import type { TestCase } from "./test-case";

/** How one case came out. */
export interface CaseVerdict {
  pass: boolean;
  /** Each reason it failed, one line each, most telling first. */
  failures: string[];
  /** The run against the recorded one, as `workflow diff` prints it; set when the case failed and its run ended. */
  diff: string | null;
  /** The same, as data (the first divergence's key is `pairs[firstDivergence].key`). */
  runDiff: RunDiff | null;
}

/**
 * The nodes a case's cassette needs in the document it runs: each agent
 * whose turns it answers and each node that serves a recorded call. A node
 * that is gone, or is now of another type, fails the case before it runs,
 * named.
 */
export function missingNodes(testCase: TestCase, document: Workflow): string[] {
  const problems: string[] = [];
  const byId = new Map(document.nodes.map((node) => [node.id, node]));
  for (const node of testCase.nodes) {
    const turns = node.steps.filter((step) => step.kind === "model-turn");
    if (turns.length === 0) continue;
    const current = byId.get(node.node);
    if (!current) problems.push(`the document has no node "${node.node}" (the cassette answers its model turns ${turns[0].key}…)`);
    else if (current.type !== node.type) problems.push(`node "${node.node}" is now a ${current.type}, not the ${node.type} the cassette recorded`);
  }
  const recordedNodes = new Set(testCase.nodes.map((node) => node.node));
  for (const node of testCase.nodes) {
    for (const step of node.steps) {
      if (step.kind !== "tool-call") continue;
      // A call served by a node of the workflow (a service node, a Task Start) needs that node; a registry server or a built-in does not.
      const servedByNode = step.server !== "builtin" && step.server !== "switchboard" && (testCase.workflow.serverNodes ?? []).includes(step.server);
      if (servedByNode && !byId.has(step.server) && !recordedNodes.has(step.server)) problems.push(`the document has no node "${step.server}" (the cassette's ${step.key} calls ${step.server}/${step.tool})`);
    }
  }
  return [...new Set(problems)];
}

/**
 * Judges a case's run from its outline (a whole trace is one): it must
 * have completed; no model turn may have been asked differently and no
 * call made that the cassette lacks; the End outputs must pass the output
 * scorers (judges among them); the tool calls must come in the recorded
 * order, each with arguments passing its scorers. A failed case carries
 * the diff from the recorded run, from the whole trace `wholeTrace` reads
 * (only then).
 *
 * @example await caseVerdict(testCase, await readRunOutline(db, runId), {}, () => readWholeRunTrace(db, runId))
 */
export async function caseVerdict(testCase: TestCase, trace: RunOutline, context: ScoreContext, wholeTrace: () => Promise<RunTrace | null>): Promise<CaseVerdict> {
  const failures: string[] = [];
  const run = trace.run;
  const topLevel = new Set(trace.nodeRuns.filter((nodeRun) => nodeRun.parentToolCallId === null).map((nodeRun) => nodeRun.id));
  // A call the cassette lacks comes first: the turns after it were asked with its error, so they diverge because of it.
  const calls = trace.toolCalls.filter((call) => call.nodeRunId !== null && topLevel.has(call.nodeRunId));
  for (const call of calls) {
    if (call.error?.includes(cassetteMark)) failures.push(`a call the cassette lacks: ${call.server}/${call.tool} ${brief(call.arguments)} (${call.stepKey ?? "no step key"})`);
  }
  for (const nodeRun of trace.nodeRuns) {
    if (nodeRun.error?.includes(cassetteMark)) failures.push(`${nodeRun.nodeId}: ${nodeRun.error.replace(`${cassetteMark} `, "")}`);
  }
  if (run.status !== "completed" && failures.length === 0) failures.push(`the run ${run.status}${run.error ? `: ${run.error}` : ""}`);
  if (run.status === "completed") {
    const outputs = await scoreAll(testCase.assertions.outputs, run.outputs, testCase.outputs, context);
    for (const score of outputs) if (!score.pass) failures.push(`outputs: ${score.reason}`);
  }
  failures.push(...(await sequenceFailures(testCase, calls, context)));
  if (failures.length === 0) return { pass: true, failures, diff: null, runDiff: null };
  const whole = await wholeTrace();
  const runDiff = whole ? diffRuns(recordedRun(testCase), whole) : null;
  return { pass: false, failures: [...new Set(failures)], diff: runDiff ? describeDiff(runDiff) : null, runDiff };
}

async function sequenceFailures(testCase: TestCase, calls: RunOutline["toolCalls"], context: ScoreContext): Promise<string[]> {
  const expected = testCase.assertions.toolCalls;
  const recorded = new Map(testCase.nodes.flatMap((node) => node.steps).map((step) => [step.key, step]));
  const failures: string[] = [];
  const count = Math.max(expected.length, calls.length);
  for (let index = 0; index < count; index++) {
    const want = expected[index];
    const got = calls[index];
    const place = `tool call ${index + 1}`;
    if (!got) {
      failures.push(`${place}: expected ${want.tool} (${want.key}), the run made no more calls`);
      continue;
    }
    const name = `${got.server}/${got.tool}`;
    if (!want) {
      failures.push(`${place}: ${name} ${brief(got.arguments)} was not in the recorded run`);
      continue;
    }
    if (name !== want.tool) {
      failures.push(`${place}: expected ${want.tool}, the run called ${name} ${brief(got.arguments)}`);
      continue;
    }
    const step = recorded.get(want.key);
    const verdict = combineScores(await scoreAll(want.arguments, got.arguments, step?.kind === "tool-call" ? step.arguments : undefined, context));
    if (!verdict.pass) failures.push(`${place} ${name} arguments: ${verdict.reason}`);
  }
  return failures;
}

const epoch = Date.parse("2000-01-01T00:00:00.000Z");

/**
 * The recorded run as a diff reads it, from the case alone (a fresh
 * database has no recorded run): rows with ids from their keys and times
 * in the case's order.
 */
export function recordedRun(testCase: TestCase): DiffSource {
  let tick = 0;
  const at = () => new Date(epoch + tick++).toISOString();
  const nodeRuns: NodeRunRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const modelTurns: ModelTurnLike[] = [];
  for (const node of testCase.nodes) {
    const startedAt = at();
    let calls = 0;
    let turns = 0;
    for (const step of node.steps) {
      if (step.kind === "tool-call") {
        calls += 1;
        toolCalls.push({ id: step.key, runId: "recorded", nodeRunId: node.key, tool: step.tool, server: step.server, caller: node.node, arguments: step.arguments, result: step.result, error: step.error, isError: step.isError, tainted: false, startedAt: at(), durationMs: 0, inputTokens: null, outputTokens: null, stepKey: step.key, sequence: toolCalls.length + 1 });
      } else {
        turns += 1;
        modelTurns.push({
          id: step.key,
          nodeRunId: node.key,
          sequence: turns,
          model: step.model,
          text: step.answer.text,
          toolCalls: step.answer.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.argumentsText ?? JSON.stringify(call.arguments ?? {}), input: call.arguments })),
          finishReason: step.answer.finishReason ?? null,
          inputTokens: step.answer.usage?.inputTokens ?? null,
          outputTokens: step.answer.usage?.outputTokens ?? null,
          startedAt: at(),
          durationMs: 0,
          callsBefore: calls,
        });
      }
    }
    nodeRuns.push({ id: node.key, runId: "recorded", nodeId: node.node, nodeType: node.type, parentToolCallId: null, status: node.status as NodeRunRecord["status"], turns, inputs: node.inputs, outputs: node.outputs, taintedOutputs: [], error: node.error, startedAt, endedAt: at() });
  }
  return {
    run: {
      id: testCase.pinnedFrom ? `${testCase.pinnedFrom.runId} (recorded)` : "recorded",
      workflowId: testCase.workflow.id,
      workflowName: testCase.workflow.name,
      status: "completed",
      input: testCase.input,
      outputs: testCase.outputs,
      error: null,
      startedAt: new Date(epoch).toISOString(),
      endedAt: at(),
    },
    nodeRuns,
    toolCalls,
    modelTurns,
  };
}
