import type { TaintedToolResult, TaintRecord } from "./run-events";

/** A tainted tool result as the tool side reports it; the registry stamps the run and the time. */
export type TaintOrigin = Omit<TaintedToolResult, "kind" | "runId" | "recordedAt">;

export interface TaintRegistryOptions {
  /** Receives every new entry (the run's sink `taintRecord`). Awaited, so no entry is lost. */
  emit?: (record: TaintRecord) => void | Promise<void>;
  now?: () => Date;
}

/**
 * The run's taint registry: which tool results brought outside content in
 * (MCP tools, custom tools declared `taints: true`), and where that content
 * went. The model always sees clean results; provenance lives only here.
 *
 * Propagation is by node run, and deliberately coarse (it over-taints,
 * never under-taints): a node run that received a tainted result, read a
 * tainted memory key, or took an input from a tainted output is tainted, and
 * then every memory key it writes and every output it sets is tainted too.
 * Outputs are tracked per node and output name for the rest of the run.
 */
export class TaintRegistry {
  private readonly entries: TaintRecord[] = [];
  private readonly results = new Set<string>();
  /** Each node run's origins, one object per node run grown in place: a call reads it by reference, never copies it. */
  private readonly nodeRuns = new Map<string, NodeRunOrigins>();
  /** The current taint of each memory key; a clean write clears it. */
  private readonly memory = new Map<string, string[]>();
  private readonly outputs = new Map<string, string[]>();
  /** Task calls (by trace row id) whose result came from tainted content. */
  private readonly taskResults = new Map<string, string[]>();

  constructor(
    readonly runId: string,
    private readonly options: TaintRegistryOptions = {},
  ) {}

  /** A tool result from outside content; the calling node run becomes tainted. Recorded once per tool call. */
  async recordToolResult(origin: TaintOrigin): Promise<void> {
    this.taintNodeRun(origin.nodeRunId, [origin.toolCallId]);
    if (this.results.has(origin.toolCallId)) return;
    this.results.add(origin.toolCallId);
    await this.add({ kind: "tool-result", runId: this.runId, ...origin, recordedAt: this.stamp() });
  }

  /** Taint carried into a node run from elsewhere (a memory key, an input, a task's result): no new entry. */
  taintNodeRun(nodeRunId: string, origins: Iterable<string>): void {
    let known = this.nodeRuns.get(nodeRunId);
    for (const origin of origins) {
      if (!known) this.nodeRuns.set(nodeRunId, (known = new NodeRunOrigins()));
      known.add(origin);
    }
  }

  /**
   * The node run's origins in the order they came, shared by reference
   * (read it, never change it): origins are only ever added, at the end, so
   * the count before a call marks the ones the call brought.
   */
  originList(nodeRunId: string): readonly string[] {
    return this.nodeRuns.get(nodeRunId)?.list ?? noOriginList;
  }

  /** The origins that came to a node run after its first `count` (what a call brought, given the count before it). */
  originsSince(nodeRunId: string, count: number): string[] {
    const list = this.originList(nodeRunId);
    return list.length > count ? list.slice(count) : [];
  }

  /** The tainted tool results (trace row ids) that reached a node run, as a copy; empty when it is clean. */
  originsOf(nodeRunId: string): string[] {
    return [...this.originList(nodeRunId)];
  }

  /** A save_to_memory call: the key is tainted when the writer is, and clean again when a clean writer overwrites it. */
  async recordMemoryWrite(write: { key: string; nodeId: string; nodeRunId: string; toolCallId: string }): Promise<boolean> {
    const origins = this.originsOf(write.nodeRunId);
    if (!origins.length) {
      this.memory.delete(write.key);
      return false;
    }
    this.memory.set(write.key, origins);
    await this.add({ kind: "memory-key", runId: this.runId, ...write, origins, recordedAt: this.stamp() });
    return true;
  }

  /** A read_memory call: reading a tainted key taints the reader. Returns whether the key is tainted. */
  recordMemoryRead(read: { key: string; nodeRunId: string }): boolean {
    const origins = this.memory.get(read.key);
    if (origins) this.taintNodeRun(read.nodeRunId, origins);
    return origins !== undefined;
  }

  /** The memory keys whose current value came from outside content. */
  taintedMemoryKeys(): string[] {
    return [...this.memory.keys()];
  }

  /** A node run ended with these outputs: when it is tainted, each is recorded. Returns the tainted names. */
  async recordOutputs(ended: { nodeId: string; nodeRunId: string; outputs: readonly string[] }): Promise<string[]> {
    const origins = this.originsOf(ended.nodeRunId);
    if (!origins.length) return [];
    for (const output of ended.outputs) {
      const key = outputKey(ended.nodeId, output);
      this.outputs.set(key, [...new Set([...(this.outputs.get(key) ?? []), ...origins])]);
      await this.add({ kind: "output", runId: this.runId, nodeId: ended.nodeId, nodeRunId: ended.nodeRunId, output, origins, recordedAt: this.stamp() });
    }
    return [...ended.outputs];
  }

  /** The origins of a node's output, when any run of the node set it from tainted content. */
  outputOrigins(nodeId: string, output: string): string[] | undefined {
    return this.outputs.get(outputKey(nodeId, output));
  }

  /** A task call (its trace row id) whose result came from a tainted node run of its sub-flow. */
  recordTaskResult(toolCallId: string, origins: readonly string[]): void {
    if (origins.length) this.taskResults.set(toolCallId, [...origins]);
  }

  taskResultOrigins(toolCallId: string): string[] | undefined {
    return this.taskResults.get(toolCallId);
  }

  /** Every entry so far, in order. */
  records(): readonly TaintRecord[] {
    return this.entries;
  }

  private async add(record: TaintRecord): Promise<void> {
    this.entries.push(record);
    await this.options.emit?.(record);
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

/** A node run's origins: each once, in the order they came. */
class NodeRunOrigins {
  readonly set = new Set<string>();
  readonly list: string[] = [];

  add(origin: string): void {
    if (this.set.has(origin)) return;
    this.set.add(origin);
    this.list.push(origin);
  }
}

const noOriginList: readonly string[] = [];

function outputKey(nodeId: string, output: string): string {
  return `${nodeId}\u0000${output}`;
}
