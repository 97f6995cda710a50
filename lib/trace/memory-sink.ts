import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, ToolCallRow } from "./run-events";

/** A sink that keeps everything in memory: for the CLI and for tests. */
export class MemorySink implements RunSink {
  runs: RunStartEvent[] = [];
  nodeStarts: NodeStartEvent[] = [];
  nodeEnds: NodeEndEvent[] = [];
  toolCalls: ToolCallRow[] = [];
  ends: RunEndEvent[] = [];

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
  runEnd(event: RunEndEvent): void {
    this.ends.push(event);
  }
}
