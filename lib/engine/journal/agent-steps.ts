import type { Conversation, ModelTurn, ToolDefinition, ToolResultMessage } from "../../ai";
import type { AgentTool, ToolOutcome } from "../../tools";
import { type TaintRegistry, type ModelContext, type ModelPrices, type ModelTurnRow, type StoredTurnRow, storedTurnRow, turnCost } from "../../trace";
import { createHash } from "node:crypto";
import { callThroughJournal } from "./journalled-call";
import type { StepRecorder } from "./step-recorder";
import type { ApprovalGate } from "../approvals/approval-gate";
import type { QuestionDesk } from "../questions/question-desk";
import { turnKey } from "../../run-model";

/** A model turn as the journal keeps it: enough to replay it, and to show it on the trace later. */
export interface RecordedModelTurn {
  /** What the model answered: text, tool calls, usage, finish reason, and the protocol's own replay data. */
  turn: ModelTurn;
  /** The protocol that answered, e.g. "openai-chat (declarative)"; the model id when the protocol knows it. */
  model: { protocol: string; id?: string };
  latencyMs: number;
  /** What was sent, in summary: the tools offered and the results handed back since the turn before. */
  sent: { tools: string[]; results: Array<{ id: string; name: string; isError: boolean; chars: number }> };
  /** The turn's trace row (what the run page, the diff and OpenTelemetry show), less what `turn` and `sent` hold already (read it whole with turnRowOf); absent in entries recorded before turns were traced. */
  row?: StoredTurnRow;
}

export interface AgentStepsOptions {
  recorder: StepRecorder;
  /** The node run's key, e.g. `agent#1`. */
  nodeRunKey: string;
  nodeId: string;
  protocol: string;
  taint: TaintRegistry;
  /** The node run the turns belong to (their trace rows hang under it). */
  nodeRunId?: string;
  /** The system prompt's addition the node sends (the wired connectors' instructions), kept once per run with the tools. */
  instructions?: string;
  /** From the manifest's toolExchange `prices`: each turn's cost. */
  prices?: ModelPrices;
  /** Told of each new turn once it is recorded (the sink's `modelTurn`: live views, OpenTelemetry). */
  onTurn?(row: ModelTurnRow): void | Promise<void>;
  /** Told of a turn about to be asked of the model (not one replayed from the journal), by its key. */
  onLiveTurn?(key: string): void;
  /** The approval policy for this node run's calls; none: every call is allowed (a run outside a workflow document). */
  gate?: ApprovalGate;
  /** Where the questions tools ask during a call are answered (MCP elicitation). */
  questions?: QuestionDesk;
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
    return turnKey(this.options.nodeRunKey, turn, callIndex);
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
        const contextKey = await this.recordContext(tools);
        const startedAt = new Date().toISOString();
        const callsBefore = this.calls;
        this.options.onLiveTurn?.(key);
        const started = performance.now();
        const turn = await inner.turn(tools, signal);
        const latencyMs = Math.round(performance.now() - started);
        const results = sent.map((result) => ({ id: result.id, name: result.name, isError: result.isError, chars: result.output.length }));
        const row = this.turnRow(turn, { startedAt, latencyMs, callsBefore, contextKey, results, sequence: turns });
        const entry: RecordedModelTurn = { turn, model: { protocol, ...(turn.modelId ? { id: turn.modelId } : {}) }, latencyMs, sent: { tools: tools.map((tool) => tool.name), results }, ...(row ? { row: storedTurnRow(row) } : {}) };
        await recorder.record({ key, kind: "model-turn", value: entry }, { repeatable: true });
        // What watches turns (the live OpenTelemetry export) hears of a turn once it is durable: a turn lost with its batch is asked again.
        if (row && this.options.onTurn) {
          await recorder.durable(key);
          await this.options.onTurn({ ...row, runId: recorder.runId, stepKey: key });
        }
        return turn;
      },
      addResults: async (turn, results) => {
        sent = [...results];
        await inner.addResults(turn, results);
      },
      // search_tools' long result becomes its short summary in the history (agent-loop): journalled runs too.
      ...(inner.replaceResult ? { replaceResult: (callId: string, output: string) => inner.replaceResult!(callId, output) } : {}),
    };
  }

  /** The node run's tool calls that have returned so far (a turn's place among them). */
  private calls = 0;

  /** The tools last offered and the key of their context. */
  private lastContext: { tools: readonly ToolDefinition[]; key: string } | null = null;

  /** What the turn was offered, kept once per run under a key named by its hash; the key, or null without a node run to hang it on. */
  private async recordContext(tools: readonly ToolDefinition[]): Promise<string | null> {
    if (!this.options.nodeRunId) return null;
    // The loop offers the same list turn after turn: its key is worked out once, not hashed again on every turn.
    if (this.lastContext?.tools === tools && this.options.recorder.has(this.lastContext.key)) return this.lastContext.key;
    const context: ModelContext = { instructions: this.options.instructions ?? "", tools: tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })) };
    const key = `context/${createHash("sha256").update(JSON.stringify(context)).digest("hex").slice(0, 16)}`;
    if (!this.options.recorder.has(key)) await this.options.recorder.record({ key, kind: "model-context", value: context }, { repeatable: true });
    this.lastContext = { tools, key };
    return key;
  }

  private turnRow(turn: ModelTurn, at: { startedAt: string; latencyMs: number; callsBefore: number; contextKey: string | null; results: RecordedModelTurn["sent"]["results"]; sequence: number }): Omit<ModelTurnRow, "runId" | "stepKey"> | undefined {
    const { nodeRunId, nodeRunKey, nodeId, protocol, prices } = this.options;
    if (!nodeRunId) return undefined;
    const inputTokens = turn.usage?.inputTokens ?? null;
    const outputTokens = turn.usage?.outputTokens ?? null;
    return {
      id: this.options.recorder.rowId(turnKey(nodeRunKey, at.sequence)),
      nodeRunId,
      nodeId,
      sequence: at.sequence,
      model: turn.modelId ?? protocol,
      provider: protocol,
      text: turn.text,
      toolCalls: turn.toolCalls,
      finishReason: turn.finishReason ?? null,
      inputTokens,
      outputTokens,
      costUsd: turnCost({ inputTokens, outputTokens }, prices),
      startedAt: at.startedAt,
      durationMs: at.latencyMs,
      callsBefore: at.callsBefore,
      contextKey: at.contextKey,
      sentResults: at.results,
    };
  }

  tool(tool: AgentTool, writeSkippedRow: (tool: AgentTool, args: unknown, outcome: ToolOutcome, row: { id: string; stepKey: string; nodeRunId: string }) => Promise<void>): AgentTool {
    return {
      ...tool,
      call: async (args, meta) => {
        // Origins are only ever added, in order: the count before the call marks the ones it brought.
        const before = this.options.taint.originList(meta.nodeRunId).length;
        const outcome = await this.counted(callThroughJournal(tool, args, meta, {
          recorder: this.options.recorder,
          key: this.key(meta.turn ?? 0, meta.callIndex ?? 0),
          nodeId: this.options.nodeId,
          taint: this.options.taint,
          gate: this.options.gate,
          questions: this.options.questions,
          writeSkippedRow: (outcome, rowId, stepKey) => writeSkippedRow(tool, args, outcome, { id: rowId, stepKey, nodeRunId: meta.nodeRunId }),
        }));
        this.options.gate?.observe(tool, before, meta, outcome);
        return outcome;
      },
    };
  }

  private async counted<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } finally {
      this.calls += 1;
    }
  }

  /** A call the platform answered itself: deterministic, so a resume computes it again; its row is written once. */
  async platform(turn: number, callIndex: number, write: (stepKey: string, rowId: string) => Promise<void>, outcome: ToolOutcome): Promise<void> {
    const { recorder } = this.options;
    const key = this.key(turn, callIndex);
    this.calls += 1;
    if (recorder.lookup(key)) return;
    recorder.ensureRunning();
    await write(key, recorder.rowId(key));
    await recorder.record({ key, kind: "tool-call", value: { outcome } }, { repeatable: true });
  }
}
