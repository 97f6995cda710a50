import type { RunTrace, ToolCallRecord } from "./run-trace";
import { byStartThenSequence } from "./trace-tree";

/** The highest `sequence` among the tool calls a page has: what it asks "after" on its next poll. */
export function lastSequence(toolCalls: readonly ToolCallRecord[]): number {
  let last = 0;
  for (const call of toolCalls) if (call.sequence > last) last = call.sequence;
  return last;
}

/**
 * A trace a page holds plus the answer to its next poll (the run and node
 * runs whole, the tool calls written since): the run and node runs are
 * replaced, new tool calls are added once each, in start order.
 */
export function mergeTrace(current: RunTrace, update: RunTrace): RunTrace {
  const known = new Set(current.toolCalls.map((call) => call.id));
  const added = update.toolCalls.filter((call) => !known.has(call.id));
  const toolCalls = added.length === 0 ? current.toolCalls : [...current.toolCalls, ...added].sort(byStartThenSequence);
  return { run: update.run, nodeRuns: update.nodeRuns, toolCalls, readAt: update.readAt };
}
