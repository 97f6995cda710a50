import { memo } from "react";
import type { ToolCallRecord, ReplayOrigin, TraceRow as Row } from "@/lib/trace/browser";
import { elapsed, formatDuration, formatTokens, plural } from "./format";
import { JsonBlock } from "./json-block";
import { StatusBadge } from "./status-badge";
import type { DetailState } from "./use-trace-data";
import { WaterfallBar, type Timeline } from "./waterfall";
import { ForkButton } from "./fork-panel";
import { CallApp } from "@/components/mcp-app/call-app";
import styles from "./run.module.css";

export interface TraceRowProps {
  row: Row;
  timeline: Timeline;
  /** The trace's "now" (ISO): where a running node run's bar ends. */
  now: string;
  onToggleCall: (callId: string) => void;
  onToggleNodeRun: (nodeRunId: string) => void;
  onToggleTurn: (turnId: string) => void;
  /** A detail row's call in full, as far as it is loaded. */
  detail?: DetailState;
  /** A step node's journal key (its node run is then forkable). */
  stepKey?: string;
}

/** Fixed heights (px) of the row kinds, matched by run.module.css; details are measured. */
export const rowHeights = { node: 56, call: 56, pending: 56, "pending-turn": 56, group: 40, detail: 320, turn: 56, "turn-detail": 240, wait: 56 } as const;

/** One row of the trace tree: a node run, a tool call, a call's details, or a group heading. */
export const TraceRow = memo(function TraceRow({ row, timeline, now, onToggleCall, onToggleNodeRun, onToggleTurn, detail, stepKey }: TraceRowProps) {
  const indent = { paddingInlineStart: `calc(${row.depth} * var(--trace-indent) + 0.5rem)` };
  switch (row.kind) {
    case "node":
      return <NodeRunRow row={row} indent={indent} timeline={timeline} now={now} onToggle={onToggleNodeRun} stepKey={stepKey} />;
    case "turn":
      return <TurnRow row={row} indent={indent} timeline={timeline} onToggle={onToggleTurn} />;
    case "turn-detail":
      return <TurnDetail row={row} indent={indent} />;
    case "call":
      return <CallRow row={row} indent={indent} timeline={timeline} onToggle={onToggleCall} />;
    case "detail":
      return <CallDetail row={row} indent={indent} detail={detail} />;
    case "pending":
      return (
        <div className={`${styles.row} ${styles.callRow} ${styles.pendingRow}`} style={indent}>
          <span className={styles.pendingLabel}>Loading call {(row.position + 1).toLocaleString("en-US")}…</span>
        </div>
      );
    case "pending-turn":
      return (
        <div className={`${styles.row} ${styles.callRow} ${styles.pendingRow}`} style={indent}>
          <span className={styles.pendingLabel}>Loading model turn {(row.index + 1).toLocaleString("en-US")}…</span>
        </div>
      );
    case "wait":
      return <WaitRow row={row} indent={indent} timeline={timeline} now={now} />;
    case "group":
      return (
        <div className={`${styles.row} ${styles.groupRow}`} style={indent}>
          <span className={styles.groupLabel}>{row.label}</span>
        </div>
      );
  }
});

type Indent = { paddingInlineStart: string };

function NodeRunRow({ row, indent, timeline, now, onToggle, stepKey }: { row: Extract<Row, { kind: "node" }>; indent: Indent; timeline: Timeline; now: string; onToggle: (id: string) => void; stepKey?: string }) {
  const { nodeRun, callCount, collapsed } = row;
  const duration = elapsed(nodeRun.startedAt, nodeRun.endedAt, now);
  const waited = nodeRun.waitedMs ? ` (${formatDuration(nodeRun.waitedMs)} of it waiting)` : "";
  const facts = [nodeRun.turns > 0 ? plural(nodeRun.turns, "turn") : null, `${formatDuration(duration)}${waited}`, plural(callCount, "call")].filter(Boolean).join(" · ");
  return (
    <div className={`${styles.row} ${styles.nodeRow}`}>
      <div className={styles.rowMain} style={indent}>
        <div className={styles.rowLine}>
          {callCount > 0 ? (
            <button type="button" className={styles.disclosure} aria-expanded={!collapsed} aria-label={`${collapsed ? "Show" : "Hide"} calls of node ${nodeRun.nodeId}`} onClick={() => onToggle(nodeRun.id)}>
              <Chevron open={!collapsed} />
            </button>
          ) : (
            <span className={styles.disclosureSpacer} aria-hidden="true" />
          )}
          <span className={styles.nodeName}>{nodeRun.nodeId}</span>
          <span className={styles.nodeType}>{nodeRun.nodeType}</span>
          <StatusBadge status={nodeRun.status} />
          {nodeRun.taintedOutputs.length > 0 ? (
            <span className="badge badge-warning" title="These outputs came from external content: see Taint below the trace">
              tainted: {nodeRun.taintedOutputs.join(", ")}
            </span>
          ) : null}
          {nodeRun.replayedFrom ? <ReplayedChip origin={nodeRun.replayedFrom} what={`node ${nodeRun.nodeId}`} /> : null}
          {stepKey && nodeRun.status === "completed" ? <ForkButton at={stepKey} what={`step ${nodeRun.nodeId}'s outputs`} value={nodeRun.outputs} /> : null}
        </div>
        <p className={styles.rowFacts}>
          {facts}
          {nodeRun.error ? <span className={styles.rowError} title={nodeRun.error}> · {nodeRun.error}</span> : null}
        </p>
      </div>
      <WaterfallBar timeline={timeline} startedAt={nodeRun.startedAt} durationMs={duration} name={`Node ${nodeRun.nodeId}`} tone={nodeRun.status === "running" ? "running" : "node"} />
    </div>
  );
}

function CallRow({ row, indent, timeline, onToggle }: { row: Extract<Row, { kind: "call" }>; indent: Indent; timeline: Timeline; onToggle: (id: string) => void }) {
  const { call, expanded, subflowCount } = row;
  const tokens = formatTokens(call.inputTokens, call.outputTokens);
  return (
    <div className={`${styles.row} ${styles.callRow}${call.isError ? ` ${styles.callRowError}` : ""}`}>
      <div className={styles.rowMain} style={indent}>
        <div className={styles.rowLine}>
          <button
            type="button"
            className={styles.disclosure}
            aria-expanded={expanded}
            aria-controls={expanded ? detailId(call.id) : undefined}
            aria-label={`${expanded ? "Hide" : "Show"} call ${call.tool}`}
            onClick={() => onToggle(call.id)}
          >
            <Chevron open={expanded} />
          </button>
          <button type="button" className={styles.toolNameButton} aria-hidden="true" tabIndex={-1} onClick={() => onToggle(call.id)}>
            <code className={styles.toolName}>{call.tool}</code>
          </button>
          {call.isError ? <span className="badge badge-error" title="The tool answered with isError: true">error</span> : null}
          {call.tainted ? <span className="badge badge-warning" title="The result came from external content and is taint-tracked">tainted</span> : null}
          {call.replayedFrom ? <ReplayedChip origin={call.replayedFrom} what={`call ${call.tool}`} /> : null}
          {call.replayed && !call.replayedFrom ? <span className={`chip ${styles.replayed}`} title="Recorded before the run resumed: the resumed run took this result from its journal instead of calling the tool again">replayed</span> : null}
          {subflowCount > 0 ? <span className="badge badge-callback" title="This call started a task's sub-flow, shown beneath it">task</span> : null}
        </div>
        <p className={styles.rowFacts}>
          <span title="The node or server that answered">{call.server}</span> · called by {call.caller} · {formatDuration(call.durationMs)}
          {tokens ? ` · ${tokens}` : ""}
          {call.isError && call.error ? <span className={styles.rowError} title={call.error}> · {call.error}</span> : null}
        </p>
      </div>
      <WaterfallBar timeline={timeline} startedAt={call.startedAt} durationMs={call.durationMs} name={`Call ${call.tool}`} tone={call.isError ? "error" : "call"} />
    </div>
  );
}

export function detailId(callId: string): string {
  return `call-detail-${callId}`;
}

function CallDetail({ row, indent, detail }: { row: Extract<Row, { kind: "detail" }>; indent: Indent; detail?: DetailState }) {
  const { call } = row;
  return (
    <section id={detailId(call.id)} className={styles.detail} style={indent} aria-label={`Arguments and result of call ${call.tool}`}>
      {detail?.state === "ready" ? (
        <>
          <CallValues call={detail.call} />
          <CallApp call={detail.call} />
          {detail.call.stepKey ? <ForkButton at={detail.call.stepKey} what={`call ${detail.call.tool}'s result`} value={detail.call.isError ? (detail.call.error ?? detail.call.result) : detail.call.result} /> : null}
        </>
      ) : detail?.state === "error" ? (
        <p className={styles.rowError} role="alert">
          The call cannot be loaded: {detail.message}
        </p>
      ) : (
        <p className="muted small" role="status">
          Loading the arguments and result…
        </p>
      )}
      <p className={styles.detailFacts}>
        Started <time dateTime={call.startedAt}>{call.startedAt.replace("T", " ").replace("Z", " UTC")}</time> · took {formatDuration(call.durationMs)} · row {call.sequence} · id <code>{call.id}</code>
      </p>
    </section>
  );
}

/** A model turn: which model answered, what it cost in tokens and time, and the calls it asked for (the rows beneath it). */
function TurnRow({ row, indent, timeline, onToggle }: { row: Extract<Row, { kind: "turn" }>; indent: Indent; timeline: Timeline; onToggle: (id: string) => void }) {
  const { turn, expanded } = row;
  const tokens = formatTokens(turn.inputTokens ?? null, turn.outputTokens ?? null);
  const asked = (turn.toolCalls ?? []).map((call) => (call as { name?: string }).name ?? "?");
  return (
    <div className={`${styles.row} ${styles.turnRow}`}>
      <div className={styles.rowMain} style={indent}>
        <div className={styles.rowLine}>
          <button type="button" className={styles.disclosure} aria-expanded={expanded} aria-label={`${expanded ? "Hide" : "Show"} the answer of model turn ${turn.sequence}`} onClick={() => onToggle(turn.id)}>
            <Chevron open={expanded} />
          </button>
          <span className={styles.nodeType}>turn {turn.sequence}</span>
          <code className={styles.toolName}>{turn.model}</code>
          {turn.finishReason ? <span className="chip">{turn.finishReason}</span> : null}
          {turn.replayedFrom ? <ReplayedChip origin={turn.replayedFrom} what={`model turn ${turn.sequence}`} /> : null}
          {turn.stepKey ? <ForkButton at={turn.stepKey} what={`model turn ${turn.sequence}'s answer`} value={{ text: turn.text, toolCalls: (turn.toolCalls ?? []).map(askedCall) }} /> : null}
        </div>
        <p className={styles.rowFacts}>
          {turn.provider && turn.provider !== turn.model ? `${turn.provider} · ` : ""}
          {formatDuration(turn.durationMs)}
          {tokens ? ` · ${tokens}` : ""}
          {asked.length ? ` · asked for ${asked.join(", ")}` : " · answered"}
        </p>
      </div>
      <WaterfallBar timeline={timeline} startedAt={turn.startedAt} durationMs={turn.durationMs} name={`Model turn ${turn.sequence}`} tone="turn" />
    </div>
  );
}

function TurnDetail({ row, indent }: { row: Extract<Row, { kind: "turn-detail" }>; indent: Indent }) {
  const { turn } = row;
  return (
    <section className={styles.detail} style={indent} aria-label={`Answer of model turn ${turn.sequence}`}>
      <div className={styles.detailColumns}>
        <div>
          <h3 className={styles.detailHeading}>Text</h3>
          <JsonBlock value={turn.text} label={`Text of model turn ${turn.sequence}`} />
        </div>
        <div>
          <h3 className={styles.detailHeading}>Tool calls asked for</h3>
          <JsonBlock value={(turn.toolCalls ?? []).map(askedCall)} label={`Tool calls of model turn ${turn.sequence}`} />
        </div>
      </div>
      <p className={styles.detailFacts}>
        Started <time dateTime={turn.startedAt}>{turn.startedAt.replace("T", " ").replace("Z", " UTC")}</time> · took {formatDuration(turn.durationMs)}
        {turn.costUsd != null ? ` · $${turn.costUsd.toFixed(6)}` : ""} · step <code>{turn.stepKey}</code>
      </p>
    </section>
  );
}

/**
 * A step a fork took from its parent's journal: replayed, not run (so it
 * took no time here), with a link to the step in the run it came from and
 * how long it took there.
 */
function ReplayedChip({ origin, what }: { origin: ReplayOrigin; what: string }) {
  const took = origin.durationMs === null ? "" : `, where it took ${formatDuration(origin.durationMs)}`;
  const title = `Replayed from the journal of run ${origin.runId.slice(0, 8)} (no model or tool called)${took}`;
  return (
    <a className={`chip ${styles.replayed}`} href={`/runs/${origin.runId}${origin.callId ? `?call=${origin.callId}` : ""}`} title={title} aria-label={`Replayed: ${what} as recorded in run ${origin.runId.slice(0, 8)}${took}`}>
      replayed
    </a>
  );
}

/** A stretch the run or a node run spent waiting (queued, for approval, for an answer, for a worker after a crash), and who or what ended it. */
function WaitRow({ row, indent, timeline, now }: { row: Extract<Row, { kind: "wait" }>; indent: Indent; timeline: Timeline; now: string }) {
  const { wait } = row;
  const duration = elapsed(wait.startedAt, wait.endedAt, now);
  return (
    <div className={`${styles.row} ${styles.waitRow}`}>
      <div className={styles.rowMain} style={indent}>
        <div className={styles.rowLine}>
          <span className={styles.disclosureSpacer} aria-hidden="true" />
          <span className={styles.nodeType}>wait</span>
          <span className={styles.waitLabel}>{wait.label}</span>
        </div>
        <p className={styles.rowFacts}>
          {formatDuration(duration)}
          {wait.endedBy ? ` · ended by ${wait.endedBy}` : " · still waiting"}
        </p>
      </div>
      <WaterfallBar timeline={timeline} startedAt={wait.startedAt} durationMs={duration} name={`Wait (${wait.kind})`} tone="wait" />
    </div>
  );
}

/** A tool call a model asked for, as a person reads and edits it: its name and arguments. */
function askedCall(call: unknown): { name: string; arguments: unknown } {
  const { name, input, arguments: text } = call as { name?: string; input?: unknown; arguments?: string };
  return { name: name ?? "?", arguments: input ?? text ?? {} };
}

function CallValues({ call }: { call: ToolCallRecord }) {
  return (
    <div className={styles.detailColumns}>
      <div>
        <h3 className={styles.detailHeading}>Arguments</h3>
        <JsonBlock value={call.arguments} label={`Arguments of ${call.tool}`} />
      </div>
      <div>
        <h3 className={styles.detailHeading}>{call.isError ? "Error" : "Result"}</h3>
        {call.isError ? <JsonBlock value={call.error ?? call.result} label={`Error of ${call.tool}`} /> : <JsonBlock value={call.result} label={`Result of ${call.tool}`} />}
      </div>
    </div>
  );
}

function Chevron({ open }: { open: boolean }) {
  return (
    <svg className={`${styles.chevron}${open ? ` ${styles.chevronOpen}` : ""}`} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
