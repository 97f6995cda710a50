import type { ModelTurnRow } from "./model-turns";
import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, TaintRecord, ToolCallRow } from "./run-events";

/** A sink that keeps everything in memory: for the CLI and for tests. */
export class MemorySink implements RunSink {
  runs: RunStartEvent[] = [];
  nodeStarts: NodeStartEvent[] = [];
  nodeEnds: NodeEndEvent[] = [];
  toolCalls: ToolCallRow[] = [];
  ends: RunEndEvent[] = [];
  taints: TaintRecord[] = [];
  modelTurns: ModelTurnRow[] = [];

  runStart(event: RunStartEvent): void {
    this.runs.push(event);
  }
  nodeStart(event: NodeStartEvent): void {
    this.nodeStarts.push(event);
  }
  toolCall(row: ToolCallRow): void {
    this.toolCalls.push(row);
  }
  nodeEnd(event: NodeEndEvent): void {
    this.nodeEnds.push(event);
  }
  modelTurn(turn: ModelTurnRow): void {
    this.modelTurns.push(turn);
  }
  taintRecord(record: TaintRecord): void {
    this.taints.push(record);
  }
  runEnd(event: RunEndEvent): void {
    this.ends.push(event);
  }
}
