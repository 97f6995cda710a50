import { foldSameSteps } from "./fold-steps";
import type { JsonChange } from "./json-changes";
import type { RunDiff, StepPair } from "./run-diff";
import type { RunStep } from "./run-steps";
import type { RunTotals } from "./run-totals";

/**
 * A run diff as plain text for a terminal: the two runs, their totals side
 * by side, the first divergence and the steps (= same, ≠ changed with its
 * changes, − only in A, + only in B); long runs of identical steps are
 * folded into one line unless `all` is set.
 */
export function describeDiff(diff: RunDiff, options: { all?: boolean } = {}): string {
  const lines = [
    `a: ${diff.a.run.id}  ${diff.a.run.workflowName}  ${diff.a.run.status}`,
    `b: ${diff.b.run.id}  ${diff.b.run.workflowName}  ${diff.b.run.status}`,
    ...(diff.sameWorkflow ? [] : ["(the runs are of different workflows)"]),
    "",
    ...totalsTable(diff.a.totals, diff.b.totals),
    "",
    ...diff.input.map((change) => `input ${changeText(change)}`),
    ...diff.outputs.map((change) => `outputs ${changeText(change)}`),
    diff.firstDivergence === null ? "the runs agree step for step" : `first divergence: ${diff.pairs[diff.firstDivergence].key}`,
    "",
    ...foldSameSteps(diff.pairs, options.all ? diff.pairs.length : 1).flatMap((row) =>
      row.kind === "pair" ? pairLines(row.pair) : [`  … ${row.count} identical steps (${row.firstKey} … ${row.lastKey}); --all shows them`],
    ),
  ];
  return lines.join("\n");
}

const marks: Record<StepPair["state"], string> = { same: "=", changed: "≠", "only-a": "−", "only-b": "+" };

function pairLines(pair: StepPair): string[] {
  const step = (pair.a ?? pair.b)!;
  const head = `${marks[pair.state]} ${"  ".repeat(step.depth)}${pair.key}  ${stepLabel(step)}${pair.state === "only-a" ? "  (only in a)" : pair.state === "only-b" ? "  (only in b)" : ""}`;
  const indent = `    ${"  ".repeat(step.depth)}`;
  return [head, ...pair.fields.flatMap((field) => field.changes.map((change) => `${indent}${field.field}${change.path ? `.${change.path}` : ""}: ${changeText({ ...change, path: "" })}`))];
}

export function stepLabel(step: RunStep): string {
  switch (step.kind) {
    case "node":
      return `node ${step.nodeId} (${step.nodeType})`;
    case "tool-call":
      return `call ${step.server}/${step.tool}`;
    case "model-turn":
      return `turn of ${step.model}`;
  }
}

function changeText(change: JsonChange): string {
  const where = change.path ? `${change.path}: ` : "";
  const show = (value: unknown) => JSON.stringify(value) ?? "undefined";
  switch (change.kind) {
    case "changed":
      return `${where}${show(change.before)} → ${show(change.after)}`;
    case "added":
      return `${where}+ ${show(change.after)}`;
    case "removed":
      return `${where}− ${show(change.before)}`;
  }
}

function totalsTable(a: RunTotals, b: RunTotals): string[] {
  const show = (value: number | null, unit = "") => (value === null ? "–" : `${value}${unit}`);
  const rows: Array<[string, string, string]> = [
    ["", "a", "b"],
    ["turns", show(a.turns), show(b.turns)],
    ["tool calls", show(a.toolCalls), show(b.toolCalls)],
    ["input tokens", show(a.inputTokens), show(b.inputTokens)],
    ["output tokens", show(a.outputTokens), show(b.outputTokens)],
    ["time", show(a.durationMs, " ms"), show(b.durationMs, " ms")],
    ["cost", a.costUsd === null ? "–" : `$${a.costUsd.toFixed(4)}`, b.costUsd === null ? "–" : `$${b.costUsd.toFixed(4)}`],
  ];
  return rows.map(([label, left, right]) => `${label.padEnd(14)}${left.padStart(12)}${right.padStart(12)}`);
}
