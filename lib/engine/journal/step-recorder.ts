import type { RunSink, TaintRecord, ToolCallRow } from "../../trace/run-events";
import type { AttentionRequest } from "../../trace/run-trace";

export type { AttentionRequest };
import { JournalUnavailableError, type RecordedStep, type RunJournal, type StepRows } from "./run-journal";
import { stableId } from "./step-key";

/** Why a run stops before its end without failing: a call waits for a person, or the journal cannot be written. */
export class RunInterruption extends Error {
  override name = "RunInterruption";
  constructor(
    readonly reason: "needs-attention" | "paused" | "journal-unavailable",
    message: string,
    readonly attention?: AttentionRequest,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}


/** What the journal holds for a tool call: the outcome the model was given, and the taint it brought in. */
export interface RecordedCall {
  outcome: { output: string; isError: boolean; structured?: unknown };
  /** The tainted results (trace row ids) the call brought into its node run; replayed into the run's taint registry. */
  taint?: string[];
  /** Set when a person chose to skip the call and typed its result. */
  skipped?: boolean;
}

/**
 * The run's side of the journal: looks steps up, holds the trace rows a
 * step writes until the step is recorded (so the row and the journal entry
 * commit together, or neither does), counts what was replayed, and stops
 * new steps once the run is pausing (a call waits for a person).
 */
export class StepRecorder {
  private readonly pending = new Map<string, ToolCallRow[]>();
  /** Taint entries of a call that is running, by its key: committed with the call's step. */
  private readonly pendingTaint = new Map<string, TaintRecord[]>();
  /** The journal key behind each trace row id handed out, so a taint entry finds its call. */
  private readonly keysOfRows = new Map<string, string>();
  private stopping: RunInterruption | null = null;
  /** How many steps this run took from the journal instead of running them. */
  replayed = 0;

  constructor(
    readonly runId: string,
    private readonly journal: RunJournal,
    /** Removes the run's secrets from a step before it is written. */
    private readonly redact: <T>(value: T) => T = (value) => value,
  ) {}

  lookup(key: string): RecordedStep | undefined {
    const step = this.journal.lookup(key);
    if (step && step.kind !== "call-start" && step.kind !== "choice" && step.kind !== "waiting" && step.kind !== "decision") this.replayed++;
    return step;
  }

  /** Whether a step is recorded, without counting it as replayed. */
  has(key: string): RecordedStep | undefined {
    return this.journal.lookup(key);
  }

  /** The trace row id of the call recorded under this key: the same on every resume. */
  rowId(key: string): string {
    const id = stableId(this.runId, key);
    this.keysOfRows.set(id, key);
    return id;
  }

  async record(step: RecordedStep): Promise<void> {
    const toolCalls = this.pending.get(step.key) ?? [];
    const taint = this.pendingTaint.get(step.key) ?? [];
    this.pending.delete(step.key);
    this.pendingTaint.delete(step.key);
    this.keysOfRows.delete(stableId(this.runId, step.key));
    const rows: StepRows = { toolCalls, taint };
    try {
      await this.journal.record(this.redact(step), rows);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new RunInterruption("journal-unavailable", `the run's journal could not be written (${reason}); it resumes once the database is back`, undefined, { cause: error });
    }
  }

  /** Before any new step runs: a run that is pausing starts nothing new. */
  ensureRunning(): void {
    if (this.stopping) throw new RunInterruption("paused", "the run paused: another step waits for a person");
  }

  /** The run stops at the next step boundary of every node (a call waits for a person, the journal is gone). */
  stop(interruption: RunInterruption): void {
    this.stopping ??= interruption;
  }

  get interruption(): RunInterruption | null {
    return this.stopping;
  }

  /**
   * Wraps the run's sink: a row that belongs to a journalled step waits for
   * its step, and so does a taint entry of a call that is running (not one
   * replayed: a replayed memory tool's entry is written again as before), so
   * the step, its row and its taint commit together. Everything else goes through.
   */
  sink(inner: RunSink): RunSink {
    const pending = this.pending;
    const heldTaint = (record: TaintRecord): boolean => {
      const key = record.kind === "output" ? undefined : this.keysOfRows.get(record.toolCallId);
      if (key === undefined || this.journal.lookup(key)) return false;
      this.pendingTaint.set(key, [...(this.pendingTaint.get(key) ?? []), record]);
      return true;
    };
    return {
      runStart: (event) => inner.runStart(event),
      nodeStart: (event) => inner.nodeStart(event),
      nodeEnd: (event) => inner.nodeEnd(event),
      runEnd: (event) => inner.runEnd(event),
      taintRecord: (record) => (heldTaint(record) ? undefined : inner.taintRecord?.(record)),
      modelTurn: (turn) => inner.modelTurn?.(turn),
      toolCall(row) {
        if (!row.stepKey) return inner.toolCall(row);
        pending.set(row.stepKey, [...(pending.get(row.stepKey) ?? []), row]);
      },
    };
  }
}

export { JournalUnavailableError };
