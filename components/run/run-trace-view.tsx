"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type TraceOverview, noFilters, buildTraceRows, type TraceRow as Row, runStage } from "@/lib/trace/browser";
import { RunOverview, type CancelRunAction } from "./run-overview";
import type { EditCaseAction } from "./case-editor";
import type { KeepAsTestAction } from "./keep-as-test";
import { AttentionPanel, type DecideAttentionAction } from "./attention-panel";
import { RunApprovalPanel } from "@/components/approvals/run-approval-panel";
import type { DecideApprovalAction } from "@/components/approvals/approval-decision-form";
import { QuestionNotice } from "../questions/question-notice";
import { TaintSection } from "./taint-section";
import { TraceFilters } from "./trace-filters";
import { rowHeights, TraceRow } from "./trace-row";
import { useTraceData } from "./use-trace-data";
import { VirtualList } from "./virtual-list";
import { ForkContext, ForkEditor, type ForkOptions, type ForkRunAction, type ForkStep } from "./fork-panel";
import { ForkLinksNotice, type ForkLinksView } from "./fork-links";
import { TimeAxis, timelineOf } from "./waterfall";
import { ToolAppContext, type ToolAppActions } from "@/components/mcp-app/app-actions";
import { LiveRunText } from "./live-run-text";
import styles from "./run.module.css";

export interface RunTraceViewProps {
  initialTrace: TraceOverview;
  /** Absent below runner: no Cancel button. */
  cancelRun?: CancelRunAction;
  /** Absent below runner: the attention panel is not offered. */
  decideAttention?: DecideAttentionAction;
  /** Decides a call an approval policy stopped (the run waits for approval); absent below runner. */
  decideApproval?: DecideApprovalAction;
  /** A tool call to open when the page loads (a link from the canvas's run panel). */
  initialCall?: string;
  /** Absent below runner: no "Fork from here". */
  forkRun?: ForkRunAction;
  /** The run this one was forked from, and its forks. */
  forkLinks: ForkLinksView;
  /** What a fork may change besides the step's answer (each agent's prompt and model, the current saved version). */
  forkOptions?: ForkOptions;
  /** Absent below editor: no "Keep as test". */
  keepAsTest?: KeepAsTestAction;
  editCase?: EditCaseAction;
  /** MCP Apps: reading a call's tool UI, and the frame's calls (absent below runner: they are refused). */
  toolApps?: ToolAppActions;
}

/**
 * The run page's live part: the overview, the filters and the trace tree
 * with its waterfall, and where external content went (Taint), following
 * the run while it runs. The tree's calls load page by page as they scroll
 * into view; a call's arguments and result when it is opened.
 */
export function RunTraceView({ initialTrace, cancelRun, decideAttention, decideApproval, initialCall, forkRun, forkLinks, forkOptions, keepAsTest, editCase, toolApps }: RunTraceViewProps) {
  const data = useTraceData(initialTrace);
  const { overview, latest, filters, setFilters, loaded, loadedTurn, loadedVersion, loadRows, details, loadDetail, locateCall } = data;
  const [expandedCalls, setExpandedCalls] = useState<ReadonlySet<string>>(() => new Set());
  const [collapsedNodeRuns, setCollapsedNodeRuns] = useState<ReadonlySet<string>>(() => new Set());
  const [expandedTurns, setExpandedTurns] = useState<ReadonlySet<string>>(() => new Set());
  const [forkStep, setForkStep] = useState<ForkStep | null>(null);

  const tree = useMemo(
    () =>
      buildTraceRows(
        { nodeRuns: overview.nodeRuns, groups: overview.groups, callsByGroup: overview.aggregates.callsByGroup, loaded, anchored: overview.anchored, matchingCalls: overview.matchingCalls, totalCalls: overview.aggregates.calls, turnPlaces: latest.turnPlaces, loadedTurn, waits: latest.timeline?.waits },
        { filters: overview.filters, expandedCalls, collapsedNodeRuns, expandedTurns },
      ),
    // `loadedVersion` says that `loaded` and `loadedTurn` answer more than before.
    [overview, loaded, loadedTurn, loadedVersion, expandedCalls, collapsedNodeRuns, expandedTurns, latest.turnPlaces, latest.timeline?.waits],
  );
  const nodeIds = useMemo(() => [...new Set(latest.nodeRuns.map((nodeRun) => nodeRun.nodeId))].sort(), [latest.nodeRuns]);
  const timeline = useMemo(
    () => timelineOf(latest.run.startedAt, latest.run.endedAt, latest.readAt, latest.aggregates.lastCallEndAt),
    [latest.run.startedAt, latest.run.endedAt, latest.readAt, latest.aggregates.lastCallEndAt],
  );

  const toggleCall = useCallback(
    (id: string) => {
      setExpandedCalls((current) => toggled(current, id));
      loadDetail(id);
    },
    [loadDetail],
  );
  const toggleNodeRun = useCallback((id: string) => setCollapsedNodeRuns((current) => toggled(current, id)), []);
  const toggleTurn = useCallback((id: string) => setExpandedTurns((current) => toggled(current, id)), []);
  const ended = latest.run.status !== "queued" && latest.run.status !== "running";
  const forkContext = useMemo(() => (forkRun ? { ended, choose: setForkStep } : null), [ended, forkRun]);
  const onRangeChange = useCallback((first: number, last: number) => loadRows(tree.rows.slice(first, last)), [loadRows, tree.rows]);

  // Opens a call in the trace (from the Taint section): no filter hides it, its node runs are open, it is expanded and focused.
  const [wantedRow, setWantedRow] = useState<string | null>(null);
  const [scrollTarget, setScrollTarget] = useState<{ key: string; token: number } | null>(null);
  const showCall = useCallback(
    async (callId: string) => {
      const call = await locateCall(callId);
      if (!call) return;
      const above = nodeRunsAbove(latest, call.nodeRunId);
      setFilters(noFilters);
      setCollapsedNodeRuns((current) => (above.some((id) => current.has(id)) ? new Set([...current].filter((id) => !above.includes(id))) : current));
      setExpandedCalls((current) => (current.has(callId) ? current : new Set([...current, callId])));
      setWantedRow(`call:${callId}`);
    },
    [latest, locateCall, setFilters],
  );
  // Scroll once the row is in the tree (the unfiltered answer may still be on its way).
  useEffect(() => {
    if (!wantedRow || !tree.rows.some((row) => row.key === wantedRow)) return;
    setWantedRow(null);
    setScrollTarget((current) => ({ key: wantedRow, token: (current?.token ?? 0) + 1 }));
  }, [wantedRow, tree.rows]);
  // `?call=<id>` (a link from the canvas's run panel) opens that call once, wherever its page of rows is.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !initialCall) return;
    opened.current = true;
    void showCall(initialCall);
  }, [initialCall, showCall]);

  return (
    <ForkContext.Provider value={forkContext}>
    <ToolAppContext.Provider value={toolApps ?? null}>
    <div className={styles.page}>
      <RunOverview run={latest.run} now={latest.readAt} nodeRunCount={latest.nodeRuns.length} toolCallCount={latest.aggregates.calls} totals={latest.totals} cancelRun={cancelRun} stage={runStage(latest.run, latest.nodeRuns)} keepAsTest={keepAsTest} editCase={editCase} />
      <ForkLinksNotice runId={latest.run.id} links={forkLinks} />
      {forkStep && forkRun ? <ForkEditor key={forkStep.at} runId={latest.run.id} step={forkStep} fork={forkRun} options={forkOptions} onClose={() => setForkStep(null)} /> : null}
      {latest.run.status === "needs-attention" && latest.run.attention?.approval && decideApproval ? <RunApprovalPanel run={latest.run} decide={decideApproval} /> : null}
      {latest.run.status === "needs-attention" && latest.run.attention?.question ? <QuestionNotice runId={latest.run.id} attention={latest.run.attention} /> : null}
      {latest.run.status === "needs-attention" && latest.run.attention && !latest.run.attention.approval && !latest.run.attention.question && decideAttention ? <AttentionPanel runId={latest.run.id} attention={latest.run.attention} decide={decideAttention} /> : null}
      {ended ? null : <LiveRunText runId={latest.run.id} />}
      {data.error ? (
        <p className={styles.pollError} role="alert">
          {data.error}
        </p>
      ) : null}
      <section className={`card ${styles.traceCard}`} aria-labelledby="trace-heading">
        <div className={styles.traceHeader}>
          <h2 id="trace-heading">Trace</h2>
          <TraceFilters filters={filters} onChange={setFilters} nodeIds={nodeIds} tools={latest.aggregates.tools} matchingCalls={tree.matchingCalls} totalCalls={tree.totalCalls} />
        </div>
        <div className={styles.columns} aria-hidden="true">
          <span>Node runs, their model turns and tool calls</span>
          <TimeAxis timeline={timeline} />
        </div>
        {tree.rows.length === 0 ? (
          <p className={styles.emptyTrace}>{overview.nodeRuns.length === 0 ? (latest.run.status === "running" ? "Waiting for the first node to start…" : "No node ran.") : "Nothing matches these filters."}</p>
        ) : (
          <VirtualList
            items={tree.rows}
            itemKey={rowKey}
            estimateHeight={estimateHeight}
            label="Trace: node runs and tool calls"
            itemProps={(row, index) => ({ "aria-level": row.depth + 1, "aria-posinset": index + 1, "aria-setsize": tree.rows.length })}
            renderItem={(row) => (
              <TraceRow row={row} timeline={timeline} now={latest.readAt} onToggleCall={toggleCall} onToggleNodeRun={toggleNodeRun} onToggleTurn={toggleTurn} detail={row.kind === "detail" ? details.get(row.call.id) : undefined} stepKey={row.kind === "node" ? latest.stepKeys?.[row.nodeRun.id] : undefined} />
            )}
            scrollTo={scrollTarget}
            onRangeChange={onRangeChange}
          />
        )}
      </section>
      <TaintSection runId={latest.run.id} taint={latest.taint} onShowCall={showCall} />
    </div>
    </ToolAppContext.Provider>
    </ForkContext.Provider>
  );
}

/**
 * The node runs a call sits under, innermost first: its own node run, then,
 * inside a task's sub-flow, the node run that made the task call, and so on
 * up (task calls are always in the first answer). What must be open to show it.
 */
function nodeRunsAbove(overview: Pick<TraceOverview, "nodeRuns" | "anchored">, nodeRunId: string | null): string[] {
  const nodeRuns = new Map(overview.nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun]));
  const taskCalls = new Map(overview.anchored.map((anchor) => [anchor.call.id, anchor.call]));
  const chain: string[] = [];
  let current = nodeRunId;
  while (current && !chain.includes(current)) {
    chain.push(current);
    const parent = nodeRuns.get(current)?.parentToolCallId;
    current = parent ? (taskCalls.get(parent)?.nodeRunId ?? null) : null;
  }
  return chain;
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
