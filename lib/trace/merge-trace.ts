import type { RunTrace } from "./run-trace";
import { byStartThenSequence } from "./run-steps";

/** The highest `sequence` among the rows a page has (tool calls, taint entries): what it asks "after" on its next poll. */
export function lastSequence(...lists: ReadonlyArray<readonly { sequence: number }[]>): number {
  let last = 0;
  for (const rows of lists) for (const row of rows) if (row.sequence > last) last = row.sequence;
  return last;
}

/**
 * A trace a page holds plus the answer to its next poll (the run and node
 * runs whole, the tool calls and taint entries written since): the run and
 * node runs are replaced, new tool calls are added once each, in start
 * order, and new taint entries once each, in write order.
 */
export function mergeTrace(current: RunTrace, update: RunTrace): RunTrace {
  const known = new Set(current.toolCalls.map((call) => call.id));
  const added = update.toolCalls.filter((call) => !known.has(call.id));
  const toolCalls = added.length === 0 ? current.toolCalls : [...current.toolCalls, ...added].sort(byStartThenSequence);
  const knownTaint = new Set(current.taintRecords.map((record) => record.id));
  const addedTaint = (update.taintRecords ?? []).filter((record) => !knownTaint.has(record.id));
  const taintRecords = addedTaint.length === 0 ? current.taintRecords : [...current.taintRecords, ...addedTaint].sort((a, b) => a.sequence - b.sequence);
  return { run: update.run, nodeRuns: update.nodeRuns, toolCalls, taintRecords, readAt: update.readAt };
}
