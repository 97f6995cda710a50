import type { LoopState } from "../calls";
import type { Workflow, WorkflowNode } from "../graph";
import type { NodeManifest } from "../manifest";
import type { AgentTool, RunMemory } from "../tools";
import type { NodeStatus, RunSink, TaintRegistry } from "../trace";
import type { EngineEnvironment } from "./environment";
import type { ResourceScope } from "./resource-scope";
import type { StepRecorder } from "./journal/step-recorder";
import type { TaskOutcome, TaskRequest } from "./canvas-tools";

import type { ChatHistoryTurn } from "./chat/chat-history";

/** One run in progress: what every executor may read and use. */
export interface RunContext {
  runId: string;
  /** The saved workflow the run belongs to; null for a document run without saving it. */
  workflowId: string | null;
  workflow: Workflow;
  env: EngineEnvironment;
  /** The run's sink, redacting every secret the run has resolved. */
  sink: RunSink;
  signal: AbortSignal;
  /** Closes every connection the run opened, at its end. */
  resources: ResourceScope;
  /** Secret values resolved for this run, never to be written anywhere. */
  secrets: Set<string>;
  /** Where outside content came from and went, for this run. */
  taint: TaintRegistry;
  /** The run's journal: steps recorded so far are replayed, new ones recorded before the next begins. */
  recorder: StepRecorder;
  /** The run's key-value memory, shared by its agents (save_to_memory, read_memory). */
  memory: RunMemory;
  /** The run's loops across nodes (`loop: open / read / advance` steps), by key. */
  loops: Map<string, LoopState>;
  /** Each agent node's declared tools (builtin, custom, mcp), resolved by the preflight before any node ran. */
  declaredTools: ReadonlyMap<string, readonly AgentTool[]>;
  /** Set when the run is a turn of a chat thread: the thread's earlier turns (each agent cuts them to its window). */
  chat?: { history: readonly ChatHistoryTurn[] };
  /** A person watches the run (started from the canvas): agents write their text live from the start. */
  liveText?: boolean;
  manifestOf(type: string): NodeManifest | undefined;
  /** Runs a Task Start's sub-flow with these arguments; its nodes are traced under the calling tool call. */
  runTask(request: TaskRequest): Promise<TaskOutcome>;
}

export type { TaskOutcome, TaskRequest } from "./canvas-tools";

/** What a node's executor hands back to the shell. */
export interface NodeOutcome {
  status: Exclude<NodeStatus, "running">;
  outputs: Record<string, unknown>;
  error: string | null;
  turns: number;
  /** For end and task-end: the value that becomes the run's (or the task's) result. */
  result?: { value: unknown };
  /** For a step with loop steps: the run's loops after it, so a resumed run replaying it has them again. */
  loops?: Record<string, LoopState>;
}

/** One node about to run. */
export interface NodeJob {
  node: WorkflowNode;
  /** Derived from the run and `runKey`: the same node run on every resume. */
  nodeRunId: string;
  /** The node run's journal key: node id and activation (`agent#1`), under the task call that started it. */
  runKey: string;
  inputs: Record<string, unknown>;
  /** For a task's entry node: the call's arguments. */
  entryValues?: Record<string, unknown>;
  /**
   * Puts values on outputs now, while the node keeps running (an agent's
   * `from: tool` rows): their targets may start before the node ends.
   * Resolves once the values are delivered. Absent outside a graph run.
   */
  emit?(outputs: Record<string, unknown>): Promise<void>;
}
