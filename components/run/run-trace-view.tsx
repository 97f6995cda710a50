"use client";

import { useCallback, useMemo, useState } from "react";
import type { RunTrace } from "@/lib/trace/run-trace";
import { nodeRunsAbove } from "@/lib/trace/taint-summary";
import { buildTraceTree, noFilters, type TraceFilters as Filters, type TraceRow as Row } from "@/lib/trace/trace-tree";
import { RunOverview, type CancelRunAction } from "./run-overview";
import { AttentionPanel, type DecideAttentionAction } from "./attention-panel";
import { TaintSection } from "./taint-section";
import { TraceFilters } from "./trace-filters";
import { rowHeights, TraceRow } from "./trace-row";
import { useLiveTrace } from "./use-live-trace";
import { VirtualList } from "./virtual-list";
import { TimeAxis, timelineOf } from "./waterfall";
import styles from "./run.module.css";

export interface RunTraceViewProps {
  initialTrace: RunTrace;
  cancelRun: CancelRunAction;
  decideAttention: DecideAttentionAction;
}

/**
 * The run page's live part: the overview, the filters and the trace tree
 * with its waterfall, and where external content went (Taint), following
 * the run while it runs.
 */
export function RunTraceView({ initialTrace, cancelRun, decideAttention }: RunTraceViewProps) {
  const { trace, pollError } = useLiveTrace(initialTrace);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [expandedCalls, setExpandedCalls] = useState<ReadonlySet<string>>(() => new Set());
  const [collapsedNodeRuns, setCollapsedNodeRuns] = useState<ReadonlySet<string>>(() => new Set());

  const tree = useMemo(() => buildTraceTree(trace, { filters, expandedCalls, collapsedNodeRuns }), [trace, filters, expandedCalls, collapsedNodeRuns]);
  const nodeIds = useMemo(() => [...new Set(trace.nodeRuns.map((nodeRun) => nodeRun.nodeId))].sort(), [trace.nodeRuns]);
  const tools = useMemo(() => [...new Set(trace.toolCalls.map((call) => call.tool))].sort(), [trace.toolCalls]);
  const timeline = useMemo(() => timelineOf(trace.run.startedAt, trace.run.endedAt, trace.readAt), [trace.run.startedAt, trace.run.endedAt, trace.readAt]);

  const toggleCall = useCallback((id: string) => setExpandedCalls((current) => toggled(current, id)), []);
  const toggleNodeRun = useCallback((id: string) => setCollapsedNodeRuns((current) => toggled(current, id)), []);

  // Opens a call in the trace (from the Taint section): no filter hides it, its node runs are open, it is expanded and focused.
  const [scrollTarget, setScrollTarget] = useState<{ key: string; token: number } | null>(null);
  const showCall = useCallback(
    (callId: string) => {
      const above = nodeRunsAbove(trace, callId);
      setFilters(noFilters);
      setCollapsedNodeRuns((current) => (above.some((id) => current.has(id)) ? new Set([...current].filter((id) => !above.includes(id))) : current));
      setExpandedCalls((current) => (current.has(callId) ? current : new Set([...current, callId])));
      setScrollTarget((current) => ({ key: `call:${callId}`, token: (current?.token ?? 0) + 1 }));
    },
    [trace],
  );

  return (
    <div className={styles.page}>
      <RunOverview run={trace.run} now={trace.readAt} nodeRunCount={trace.nodeRuns.length} toolCallCount={trace.toolCalls.length} cancelRun={cancelRun} />
      {trace.run.status === "needs-attention" && trace.run.attention ? <AttentionPanel runId={trace.run.id} attention={trace.run.attention} decide={decideAttention} /> : null}
      {pollError ? (
        <p className={styles.pollError} role="alert">
          {pollError}
        </p>
      ) : null}
      <section className={`card ${styles.traceCard}`} aria-labelledby="trace-heading">
        <div className={styles.traceHeader}>
          <h2 id="trace-heading">Trace</h2>
          <TraceFilters filters={filters} onChange={setFilters} nodeIds={nodeIds} tools={tools} matchingCalls={tree.matchingCalls} totalCalls={tree.totalCalls} />
        </div>
        <div className={styles.columns} aria-hidden="true">
          <span>Node runs and their tool calls</span>
          <TimeAxis timeline={timeline} />
        </div>
        {tree.rows.length === 0 ? (
          <p className={styles.emptyTrace}>{trace.nodeRuns.length === 0 ? (trace.run.status === "running" ? "Waiting for the first node to start…" : "No node ran.") : "Nothing matches these filters."}</p>
        ) : (
          <VirtualList
            items={tree.rows}
            itemKey={rowKey}
            estimateHeight={estimateHeight}
            label="Trace: node runs and tool calls"
            itemProps={(row, index) => ({ "aria-level": row.depth + 1, "aria-posinset": index + 1, "aria-setsize": tree.rows.length })}
            renderItem={(row) => <TraceRow row={row} timeline={timeline} now={trace.readAt} onToggleCall={toggleCall} onToggleNodeRun={toggleNodeRun} />}
            scrollTo={scrollTarget}
          />
        )}
      </section>
      <TaintSection trace={trace} onShowCall={showCall} />
    </div>
  );
}

function rowKey(row: Row): string {
  return row.key;
}

function estimateHeight(row: Row): number {
  return rowHeights[row.kind];
}

function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}
