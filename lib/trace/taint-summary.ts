import type { TaintSource } from "./run-events";
import type { RunTrace, TaintRecordEntry } from "./run-trace";

/** Where a piece of tainted content came from: one tool call's result. */
export interface TaintOrigin {
  /** The tool call's trace row id. */
  callId: string;
  /** From the registry's tool-result entry, or the call's row; null while neither is known yet. */
  server: string | null;
  tool: string | null;
  source: TaintSource | null;
  /** Whether the call's row is in the trace (and so can be shown). */
  inTrace: boolean;
}

/** A memory key or a node output that took in external content. */
export interface TaintedTarget {
  /** The entry's id. */
  id: string;
  kind: "memory-key" | "output";
  /** The memory key, or `node.output`. */
  label: string;
  nodeId: string;
  nodeRunId: string;
  origins: TaintOrigin[];
}

export interface TaintSummary {
  /** Tool calls whose results brought external content in. */
  entries: TaintOrigin[];
  memoryKeys: TaintedTarget[];
  outputs: TaintedTarget[];
}

/**
 * The run's taint registry as the run page lists it: which tool results
 * brought external content in, and which memory keys and outputs that
 * content reached, each with the calls it came from. Pure.
 *
 * @example
 * const { memoryKeys } = taintSummary(trace); // [{ label: "findings", origins: [{ server: "web-search", tool: "search", … }] }]
 */
export function taintSummary(trace: Pick<RunTrace, "taintRecords" | "toolCalls">): TaintSummary {
  const calls = new Map(trace.toolCalls.map((call) => [call.id, call]));
  const results = new Map<string, Extract<TaintRecordEntry, { kind: "tool-result" }>>();
  for (const record of trace.taintRecords) if (record.kind === "tool-result") results.set(record.toolCallId, record);
  const origin = (callId: string): TaintOrigin => {
    const result = results.get(callId);
    const call = calls.get(callId);
    return { callId, server: result?.server ?? call?.server ?? null, tool: result?.tool ?? call?.tool ?? null, source: result?.source ?? null, inTrace: call !== undefined };
  };
  const summary: TaintSummary = { entries: [...results.keys()].map(origin), memoryKeys: [], outputs: [] };
  for (const record of trace.taintRecords) {
    if (record.kind === "tool-result") continue;
    const target = {
      id: record.id,
      kind: record.kind,
      label: record.kind === "memory-key" ? record.key : `${record.nodeId}.${record.output}`,
      nodeId: record.nodeId,
      nodeRunId: record.nodeRunId,
      origins: record.origins.map(origin),
    };
    (record.kind === "memory-key" ? summary.memoryKeys : summary.outputs).push(target);
  }
  return summary;
}

/**
 * The node runs a tool call sits under, innermost first: its own node run,
 * then, for a call inside a task's sub-flow, the node run that made the
 * task call, and so on up. What must be expanded to show the call.
 */
export function nodeRunsAbove(trace: Pick<RunTrace, "nodeRuns" | "toolCalls">, callId: string): string[] {
  const calls = new Map(trace.toolCalls.map((call) => [call.id, call]));
  const nodeRuns = new Map(trace.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  const chain: string[] = [];
  let call = calls.get(callId);
  while (call?.nodeRunId && !chain.includes(call.nodeRunId)) {
    chain.push(call.nodeRunId);
    const parent = nodeRuns.get(call.nodeRunId)?.parentToolCallId;
    call = parent ? calls.get(parent) : undefined;
  }
  return chain;
}
