import type { Conversation, ModelTurn, ToolDefinition, ToolResultMessage } from "../../ai/model";
import type { AgentTool, ToolOutcome } from "../../tools/agent-tool";
import type { TaintRegistry } from "../../trace/taint-registry";
import { callThroughJournal } from "./journalled-call";
import type { StepRecorder } from "./step-recorder";
import type { ApprovalGate } from "../approvals/approval-gate";

/** A model turn as the journal keeps it: enough to replay it, and to show it on the trace later. */
export interface RecordedModelTurn {
  /** What the model answered: text, tool calls, usage, finish reason, and the protocol's own replay data. */
  turn: ModelTurn;
  /** The protocol that answered, e.g. "openai-chat (declarative)"; the model id when the protocol knows it. */
  model: { protocol: string; id?: string };
  latencyMs: number;
  /** What was sent, in summary: the tools offered and the results handed back since the turn before. */
  sent: { tools: string[]; results: Array<{ id: string; name: string; isError: boolean; chars: number }> };
}

export interface AgentStepsOptions {
  recorder: StepRecorder;
  /** The node run's key, e.g. `agent#1`. */
  nodeRunKey: string;
  nodeId: string;
  protocol: string;
  taint: TaintRegistry;
  /** The approval policy for this node run's calls; none: every call is allowed (a run outside a workflow document). */
  gate?: ApprovalGate;
}

/**
 * One agent node run's journal: its conversation answers recorded turns
 * from the journal (and records new ones before the loop goes on), its tools
 * go through the exactly-once rule, and a platform answer's row is written
 * once. The turn loop itself does not change: it sees a Conversation and
 * AgentTools as before.
 */
export class AgentSteps {
  constructor(private readonly options: AgentStepsOptions) {}

  key(turn: number, callIndex?: number): string {
    return `${this.options.nodeRunKey}/t${turn}${callIndex === undefined ? "" : `/c${callIndex}`}`;
  }

  conversation(inner: Conversation): Conversation {
    const { recorder, protocol } = this.options;
    let turns = 0;
    let sent: ToolResultMessage[] = [];
    return {
      turn: async (tools: readonly ToolDefinition[], signal?: AbortSignal) => {
        turns += 1;
        const key = this.key(turns);
        const recorded = recorder.lookup(key)?.value as RecordedModelTurn | undefined;
        if (recorded) {
          inner.restore?.(recorded.turn, tools);
          return recorded.turn;
        }
        recorder.ensureRunning();
        const started = performance.now();
        const turn = await inner.turn(tools, signal);
        const entry: RecordedModelTurn = {
          turn,
          model: { protocol, ...(turn.modelId ? { id: turn.modelId } : {}) },
          latencyMs: Math.round(performance.now() - started),
          sent: { tools: tools.map((tool) => tool.name), results: sent.map((result) => ({ id: result.id, name: result.name, isError: result.isError, chars: result.output.length })) },
        };
        await recorder.record({ key, kind: "model-turn", value: entry });
        return turn;
      },
      addResults: (turn, results) => {
        sent = [...results];
        inner.addResults(turn, results);
      },
    };
  }

  tool(tool: AgentTool, writeSkippedRow: (tool: AgentTool, args: unknown, outcome: ToolOutcome, row: { id: string; stepKey: string; nodeRunId: string }) => Promise<void>): AgentTool {
    return {
      ...tool,
      call: async (args, meta) => {
        const before = new Set(this.options.taint.originsOf(meta.nodeRunId));
        const outcome = await callThroughJournal(tool, args, meta, {
          recorder: this.options.recorder,
          key: this.key(meta.turn ?? 0, meta.callIndex ?? 0),
          nodeId: this.options.nodeId,
          taint: this.options.taint,
          gate: this.options.gate,
          writeSkippedRow: (outcome, rowId, stepKey) => writeSkippedRow(tool, args, outcome, { id: rowId, stepKey, nodeRunId: meta.nodeRunId }),
        });
        this.options.gate?.observe(tool, before, meta, outcome);
        return outcome;
      },
    };
  }

  /** A call the platform answered itself: deterministic, so a resume computes it again; its row is written once. */
  async platform(turn: number, callIndex: number, write: (stepKey: string, rowId: string) => Promise<void>, outcome: ToolOutcome): Promise<void> {
    const { recorder } = this.options;
    const key = this.key(turn, callIndex);
    if (recorder.lookup(key)) return;
    recorder.ensureRunning();
    await write(key, recorder.rowId(key));
    await recorder.record({ key, kind: "tool-call", value: { outcome } });
  }
}
