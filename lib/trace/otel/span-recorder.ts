import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, TaintRecord, ToolCallRow } from "../run-events";
import type { ModelTurnLike } from "../run-steps";
import { chatSpan, nodeSpan, toolSpan, workflowSpan, type SpanPlace, type SpanRecord } from "./genai-spans";
import { spanIdOf, traceIdOfRun, type RemoteParent } from "./trace-context";
import type { RunOrigin } from "../../run-model";

export interface SpanRecorderOptions {
  /** Called with each span as it ends (a tool call when its row comes, a node run at its end, the run last). */
  emit(span: SpanRecord): void;
  /** Arguments, results, inputs and outputs as attributes (SWITCHBOARD_OTEL_CAPTURE_CONTENT). */
  captureContent: boolean;
  workflowName?: string | null;
  /** How the run started (switchboard.run.origin on the workflow span). */
  origin?: RunOrigin | null;
  /** The host span a run started by an outside call hangs under. */
  remoteParent?: RemoteParent | null;
  /** Which node types are agents (invoke_agent); by default a node that took model turns, or whose type says agent. */
  isAgent?(nodeType: string, turns: number): boolean;
}

const defaultIsAgent = (nodeType: string, turns: number) => turns > 0 || /agent/i.test(nodeType);

/**
 * The run's events → finished spans, with parents by id: a node run under
 * the run (or under the Task call whose sub-flow it is), a tool call or a
 * model turn under its node run. Ids come from trace-context.ts, so a
 * parent need not have ended (a Task call's row comes after its sub-flow).
 * Nothing here throws into the run: a span it cannot make is skipped.
 */
export class SpanRecorder implements Required<Pick<RunSink, "runStart" | "nodeStart" | "toolCall" | "nodeEnd" | "taintRecord" | "runEnd">> {
  private run: RunStartEvent | undefined;
  private readonly nodeStarts = new Map<string, NodeStartEvent>();
  private readonly taintSources = new Set<string>();

  constructor(private readonly options: SpanRecorderOptions) {}

  get traceId(): string | undefined {
    return this.run ? this.traceIdFor(this.run.runId) : undefined;
  }

  runStart(event: RunStartEvent): void {
    this.run = event;
  }

  nodeStart(event: NodeStartEvent): void {
    this.nodeStarts.set(event.nodeRunId, event);
  }

  toolCall(row: ToolCallRow): void {
    const parent = row.nodeRunId && this.nodeStarts.has(row.nodeRunId) ? spanIdOf({ kind: "node", nodeRunId: row.nodeRunId }) : this.runSpanId(row.runId);
    this.emit(() => toolSpan(this.place(row.runId, spanIdOf({ kind: "call", toolCallId: row.id }), parent), row, this.options));
  }

  /** A model turn (the durable-runs journal's rows): a `chat` span under its node run. */
  modelTurn(runId: string, turn: ModelTurnLike): void {
    this.emit(() => chatSpan(this.place(runId, spanIdOf({ kind: "turn", turnId: turn.id }), spanIdOf({ kind: "node", nodeRunId: turn.nodeRunId })), turn, this.options));
  }

  nodeEnd(event: NodeEndEvent): void {
    const start = this.nodeStarts.get(event.nodeRunId);
    if (!start) return;
    this.nodeStarts.delete(event.nodeRunId);
    this.emitNode(start, event);
  }

  taintRecord(record: TaintRecord): void {
    if (record.kind === "tool-result") this.taintSources.add(`${record.server}/${record.tool}`);
  }

  runEnd(event: RunEndEvent): void {
    const start = this.run;
    if (!start) return;
    // A node run the engine never ended (it failed underneath) still closes, at the run's end.
    for (const nodeStart of [...this.nodeStarts.values()]) {
      this.emitNode(nodeStart, { runId: event.runId, nodeRunId: nodeStart.nodeRunId, status: "failed", outputs: {}, error: "the node run did not end before its run", turns: 0, endedAt: event.endedAt });
    }
    this.nodeStarts.clear();
    const remote = this.options.remoteParent ?? null;
    const place: SpanPlace = { traceId: this.traceIdFor(start.runId), spanId: this.runSpanId(start.runId), parentSpanId: remote?.spanId ?? null, parentIsRemote: remote !== null };
    this.emit(() => workflowSpan(place, start, event, { workflowName: this.options.workflowName ?? null, origin: this.options.origin ?? null, taintSources: [...this.taintSources].sort(), captureContent: this.options.captureContent }));
  }

  private emitNode(start: NodeStartEvent, end: NodeEndEvent): void {
    const parent = start.parentToolCallId ? spanIdOf({ kind: "call", toolCallId: start.parentToolCallId }) : this.runSpanId(start.runId);
    const agent = (this.options.isAgent ?? defaultIsAgent)(start.nodeType, end.turns);
    this.emit(() => nodeSpan(this.place(start.runId, spanIdOf({ kind: "node", nodeRunId: start.nodeRunId }), parent), start, end, { agent, captureContent: this.options.captureContent }));
  }

  private place(runId: string, spanId: string, parentSpanId: string): SpanPlace {
    return { traceId: this.traceIdFor(runId), spanId, parentSpanId };
  }

  private traceIdFor(runId: string): string {
    return this.options.remoteParent?.traceId ?? traceIdOfRun(runId);
  }

  private runSpanId(runId: string): string {
    return spanIdOf({ kind: "run", runId });
  }

  private emit(make: () => SpanRecord): void {
    try {
      this.options.emit(make());
    } catch (error) {
      // Export is an observer: a span that cannot be made or sent never stops the run.
      console.warn(`OpenTelemetry: a span was dropped: ${(error as Error).message}`);
    }
  }
}
