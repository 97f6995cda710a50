import { jsonChanges, type JsonChange } from "./json-changes";
import type { RunRecord } from "./run-trace";
import { runSteps, type RunStep, type StepSource } from "./run-steps";
import { runTotals, type RunTotals } from "./run-totals";

/**
 * Two runs side by side: their steps lined up by node and order (the step
 * keys of run-steps.ts), what differs in each pair of steps as JSON
 * changes, the first place they part, and what each spent. Pure: the
 * compare page, `npm run workflow -- diff` and the tests call it alike.
 */

export type DiffSource = StepSource & { run: RunRecord };

export interface RunSide {
  run: RunRecord;
  totals: RunTotals;
}

/** The changes in one field of a pair of steps (e.g. `arguments`). */
export interface FieldChanges {
  field: string;
  changes: JsonChange[];
}

export type PairState = "same" | "changed" | "only-a" | "only-b";

export interface StepPair {
  key: string;
  a: RunStep | null;
  b: RunStep | null;
  state: PairState;
  /** Only the fields that differ; empty when the pair is the same or one-sided. */
  fields: FieldChanges[];
}

export interface RunDiff {
  a: RunSide;
  b: RunSide;
  /** Both ran the same workflow (by id); the diff still works when not. */
  sameWorkflow: boolean;
  input: JsonChange[];
  outputs: JsonChange[];
  pairs: StepPair[];
  /** The index in `pairs` of the first pair that is not the same; null when the runs agree step for step. */
  firstDivergence: number | null;
}

/**
 * @example
 * const diff = diffRuns(traceA, traceB);
 * diff.pairs[diff.firstDivergence!].key // "agent#1/call 1"
 */
export function diffRuns(a: DiffSource, b: DiffSource): RunDiff {
  const pairs = alignSteps(runSteps(a), runSteps(b)).map(comparePair);
  const first = firstDivergence(pairs);
  return {
    a: { run: a.run, totals: runTotals(a) },
    b: { run: b.run, totals: runTotals(b) },
    sameWorkflow: a.run.workflowId !== null && a.run.workflowId === b.run.workflowId,
    input: jsonChanges(a.run.input, b.run.input),
    outputs: jsonChanges(a.run.outputs, b.run.outputs),
    pairs,
    firstDivergence: first,
  };
}

/**
 * Where two runs part first. A node run is listed before its turns and
 * calls, but what it gave out is decided by them: a node whose inputs are
 * the same and whose outputs (or status) differ parts at its first step that
 * differs, when one does (a fork at a node's 3rd call parts there, not at
 * the node). A node whose inputs differ parts at the node itself.
 */
function firstDivergence(pairs: readonly StepPair[]): number | null {
  let first = pairs.findIndex((pair) => pair.state !== "same");
  if (first === -1) return null;
  for (;;) {
    const pair = pairs[first];
    const resultOnly = pair.state === "changed" && pair.a?.kind === "node" && pair.fields.every((field) => field.field !== "inputs" && field.field !== "nodeType");
    const inner = resultOnly ? pairs.findIndex((other, index) => index > first && other.state !== "same" && other.key.startsWith(`${pair.key}/`)) : -1;
    if (inner === -1) return first;
    first = inner;
  }
}

/**
 * Pairs the steps with the same key, keeping each run's order: a step only
 * one run has is placed where it came in that run. Walks A; before A's step
 * whose key B also has, B's unpaired steps that came before its partner go
 * first.
 */
export function alignSteps(a: readonly RunStep[], b: readonly RunStep[]): Array<{ key: string; a: RunStep | null; b: RunStep | null }> {
  const bIndex = new Map(b.map((step, index) => [step.key, index]));
  const aKeys = new Set(a.map((step) => step.key));
  const aligned: Array<{ key: string; a: RunStep | null; b: RunStep | null }> = [];
  let nextB = 0;
  const flushB = (until: number) => {
    for (; nextB < until; nextB += 1) if (!aKeys.has(b[nextB].key)) aligned.push({ key: b[nextB].key, a: null, b: b[nextB] });
  };
  for (const step of a) {
    const partner = bIndex.get(step.key);
    if (partner === undefined) {
      aligned.push({ key: step.key, a: step, b: null });
      continue;
    }
    // A partner B already passed (the runs ordered these steps differently) still pairs.
    if (partner >= nextB) {
      flushB(partner);
      nextB = partner + 1;
    }
    aligned.push({ key: step.key, a: step, b: b[partner] });
  }
  flushB(b.length);
  return aligned;
}

function comparePair(pair: { key: string; a: RunStep | null; b: RunStep | null }): StepPair {
  if (!pair.a) return { ...pair, state: "only-b", fields: [] };
  if (!pair.b) return { ...pair, state: "only-a", fields: [] };
  const before = comparedFields(pair.a);
  const after = comparedFields(pair.b);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const fields = names.map((field) => ({ field, changes: jsonChanges(before[field], after[field]) })).filter((field) => field.changes.length > 0);
  return { ...pair, state: fields.length > 0 ? "changed" : "same", fields };
}

/**
 * What makes two steps the same: what went in and what came out, never
 * ids or timing (two runs never share those).
 */
export function comparedFields(step: RunStep): Record<string, unknown> {
  switch (step.kind) {
    case "node":
      return { nodeType: step.nodeType, status: step.status, inputs: step.inputs, outputs: step.outputs, error: step.error };
    case "tool-call":
      return { tool: step.tool, server: step.server, arguments: step.arguments, result: step.result, error: step.error };
    case "model-turn":
      return { model: step.model, answer: step.answer, finishReason: step.finishReason };
  }
}
