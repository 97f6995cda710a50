import type { RunRecord } from "./run-trace";
import type { StepSource } from "./run-steps";

/** What a run spent: the figures a run header, the runs list and a run diff show. */
export interface RunTotals {
  /** Model turns: counted from turn rows when the trace has them, else the node runs' turn counts. */
  turns: number;
  toolCalls: number;
  /** null when no model reported any. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** From start to end; null while the run runs. */
  durationMs: number | null;
  /** In US dollars; null unless every model turn has a known cost. */
  costUsd: number | null;
}

/**
 * @example
 * runTotals(trace) // { turns: 2, toolCalls: 1, inputTokens: 180, outputTokens: 40, durationMs: 61, costUsd: null }
 */
export function runTotals(trace: StepSource & { run: Pick<RunRecord, "startedAt" | "endedAt"> }): RunTotals {
  const turns = trace.modelTurns ?? [];
  const tokens = turns.length > 0 ? turnTokens(trace) : callTokens(trace);
  const costs = turns.map((turn) => turn.costUsd ?? null);
  return {
    turns: turns.length > 0 ? turns.length : trace.nodeRuns.reduce((sum, nodeRun) => sum + nodeRun.turns, 0),
    toolCalls: trace.toolCalls.length,
    ...tokens,
    durationMs: trace.run.endedAt ? Math.max(0, Date.parse(trace.run.endedAt) - Date.parse(trace.run.startedAt)) : null,
    costUsd: costs.length > 0 && costs.every((cost) => cost !== null) ? costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0) : null,
  };
}

type Tokens = Pick<RunTotals, "inputTokens" | "outputTokens">;

function turnTokens(trace: StepSource): Tokens {
  return sumTokens((trace.modelTurns ?? []).map((turn) => ({ input: turn.inputTokens ?? null, output: turn.outputTokens ?? null })));
}

/**
 * Without turn rows, a tool-call row carries the usage of the turn that
 * asked for it, so the calls of one turn repeat the same figures: each
 * distinct (node run, input, output) is counted once — the rule
 * lib/db/run-totals.ts applies in SQL for the runs list.
 */
function callTokens(trace: StepSource): Tokens {
  const turns = new Map<string, { input: number | null; output: number | null }>();
  for (const call of trace.toolCalls) {
    if (call.inputTokens === null && call.outputTokens === null) continue;
    turns.set(`${call.nodeRunId}|${call.inputTokens}|${call.outputTokens}`, { input: call.inputTokens, output: call.outputTokens });
  }
  return sumTokens([...turns.values()]);
}

function sumTokens(rows: ReadonlyArray<{ input: number | null; output: number | null }>): Tokens {
  const add = (values: Array<number | null>) => (values.some((value) => value !== null) ? values.reduce<number>((sum, value) => sum + (value ?? 0), 0) : null);
  return { inputTokens: add(rows.map((row) => row.input)), outputTokens: add(rows.map((row) => row.output)) };
}
