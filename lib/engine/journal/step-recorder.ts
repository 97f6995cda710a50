import type { RunSink, TaintRecord, ToolCallRow, AttentionRequest } from "../../trace";

export type { AttentionRequest };
import { type JournalEntry, JournalUnavailableError, type RecordedStep, type RunJournal, type StepRows } from "./run-journal";
import { stableId } from "../../run-model";

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
 * How many steps safe to repeat may wait to be sent while a batch commits:
 * past this, the run waits for that batch (a slow database slows the run
 * instead of letting it run far ahead of what is durable). Steps come this
 * fast only when taking them is cheap (a cassette, in-process tools), so
 * losing them costs little; a run that waited every 64 steps spent most of
 * its time waiting, and its many small commits cost more than a few large.
 */
export const maxStepsBehind = 1024;

interface Queued extends JournalEntry {
  /** Settles once the step is committed, or its batch failed (caught: whoever waits for it learns which). */
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The run's side of the journal: looks steps up, holds the trace rows a
 * step writes until the step is recorded (so the row and the journal entry
 * commit together, or neither does), counts what was replayed, and stops
 * new steps once the run is pausing (a call waits for a person).
 *
 * Steps are committed in the order they were taken, one transaction at a
 * time per run. A step whose loss only means doing it again (a model turn,
 * a read-only or idempotent call: `repeatable`) may commit behind the run:
 * record returns at once and the step goes with the next batch. Every
 * other step, a node's or the run's end, and a run that stops wait until
 * everything before them is committed. A call that changes something
 * waits for the turn that asked for it (`durable`), a step node and an
 * agent's mid-run outputs for everything before them (`settled`): nothing
 * outside the run begins on a step that could still be lost, and a batch
 * that fails fails every step after it (the run stops and resumes from
 * what is durable). docs/runs.md, "The exactly-once rules", items 5 and 6.
 */
export class StepRecorder {
  private readonly pending = new Map<string, ToolCallRow[]>();
  /** Taint entries of a call that is running, by its key: committed with the call's step. */
  private readonly pendingTaint = new Map<string, TaintRecord[]>();
  /** The journal key behind each trace row id handed out, so a taint entry finds its call. */
  private readonly keysOfRows = new Map<string, string>();
  /** Each key's row id, hashed once: a call's id is asked for when it runs and again when it is recorded. */
  private readonly rowIds = new Map<string, string>();
  private stopping: RunInterruption | null = null;
  /** Steps taken and not yet committed, oldest first; the batch being written is not among them. */
  private queue: Queued[] = [];
  /** Recorded steps whose commit is still under way, by key: a lookup sees them as recorded. */
  private readonly uncommitted = new Map<string, Queued>();
  /** The last step recorded: once it is committed, so is every step before it. */
  private newest: Queued | null = null;
  private writing: Promise<void> | null = null;
  /** Steps that wait for the batch under way to end (the run was maxStepsBehind ahead). */
  private batchWaiters: Array<() => void> = [];
  /** Why a batch could not be written: every later step and flush fails with it. */
  private broken: unknown = null;
  /** How many steps this run took from the journal instead of running them. */
  replayed = 0;

  constructor(
    readonly runId: string,
    private readonly journal: RunJournal,
    /** Removes the run's secrets from a step before it is written. */
    private readonly redact: <T>(value: T) => T = (value) => value,
  ) {}

  lookup(key: string): RecordedStep | undefined {
    const step = this.has(key);
    if (step && step.kind !== "call-start" && step.kind !== "choice" && step.kind !== "waiting" && step.kind !== "decision") this.replayed++;
    return step;
  }

  /** Whether a step is recorded, without counting it as replayed. */
  has(key: string): RecordedStep | undefined {
    return this.uncommitted.get(key)?.step ?? this.journal.lookup(key);
  }

  /** The trace row id of the call recorded under this key: the same on every resume. */
  rowId(key: string): string {
    const id = this.idOf(key);
    this.keysOfRows.set(id, key);
    return id;
  }

  private idOf(key: string): string {
    let id = this.rowIds.get(key);
    if (id === undefined) this.rowIds.set(key, (id = stableId(this.runId, key)));
    return id;
  }

  /**
   * Records the step with the rows it wrote. Resolves once it and every
   * step before it are committed; a `repeatable` step (losing it costs only
   * doing it again) resolves at once when the journal can batch, and its
   * commit follows behind the run.
   */
  async record(step: RecordedStep, options: { repeatable?: boolean } = {}): Promise<void> {
    const toolCalls = this.pending.get(step.key) ?? [];
    const taint = this.pendingTaint.get(step.key) ?? [];
    this.pending.delete(step.key);
    this.pendingTaint.delete(step.key);
    const id = this.rowIds.get(step.key);
    if (id !== undefined) {
      // A step's id was only handed out for its rows: once recorded, neither is asked for again.
      this.keysOfRows.delete(id);
      this.rowIds.delete(step.key);
    }
    if (this.broken) throw this.unavailable(this.broken);
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const committed = new Promise<void>((ok, fail) => ((resolve = ok), (reject = fail)));
    committed.catch(() => undefined); // seen by whoever waits for it, or by the next step
    const entry: Queued = { step: this.redact(step), rows: { toolCalls, taint }, recordedAt: new Date(), repeatable: options.repeatable === true, committed, resolve, reject };
    this.queue.push(entry);
    this.uncommitted.set(step.key, entry);
    this.newest = entry;
    this.writing ??= this.write();
    if (options.repeatable && this.journal.recordSteps) {
      while (this.queue.length > maxStepsBehind && !this.broken) await new Promise<void>((resolve) => this.batchWaiters.push(resolve));
      if (this.broken) throw this.unavailable(this.broken);
      return;
    }
    await this.committed(entry);
  }

  /**
   * Waits until the step recorded under `key`, and so every step before it,
   * is committed (at once when it is: committed earlier, or replayed). A call
   * that changes something waits for the turn that asked for it: were that
   * turn lost, the model could ask again for something else, and the first
   * call's effect would be in no journal.
   */
  async durable(key: string): Promise<void> {
    const entry = this.uncommitted.get(key);
    if (entry) await this.committed(entry);
    if (this.broken) throw this.unavailable(this.broken);
  }

  /** Waits until every step recorded so far is committed (not the ones recorded meanwhile); for the engine, as a step of its own would. */
  async settled(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async committed(entry: Queued): Promise<void> {
    try {
      await entry.committed;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /**
   * Waits until every step recorded so far is committed; rejects with the
   * JournalUnavailableError that stopped a batch. A node's and the run's end
   * wait for it, and a run that stops early does too.
   */
  async flush(): Promise<void> {
    const newest = this.newest;
    if (newest) await newest.committed.catch(() => undefined);
    if (this.broken) throw this.broken instanceof JournalUnavailableError ? this.broken : new JournalUnavailableError(String(this.broken), { cause: this.broken });
  }

  /** Writes the queue, a batch at a time: what queued while one batch commits goes in the next. */
  private async write(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        if (this.broken) throw this.broken;
        if (this.journal.recordSteps) await this.journal.recordSteps(batch);
        else for (const entry of batch) await this.journal.record(entry.step, entry.rows);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        this.broken ??= error;
        for (const entry of batch) entry.reject(error);
      } finally {
        for (const entry of batch) if (this.uncommitted.get(entry.step.key) === entry) this.uncommitted.delete(entry.step.key);
        const waiters = this.batchWaiters;
        this.batchWaiters = [];
        for (const resume of waiters) resume();
      }
    }
    this.writing = null;
  }

  private unavailable(error: unknown): RunInterruption {
    if (error instanceof RunInterruption) return error;
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return new RunInterruption("journal-unavailable", `the run's journal could not be written (${reason}); it resumes once the database is back`, undefined, { cause: error });
  }

  /** Before any new step runs: a run that is pausing starts nothing new. */
  ensureRunning(): void {
    if (this.broken) throw this.unavailable(this.broken);
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
      if (key === undefined || this.has(key)) return false;
      this.pendingTaint.set(key, [...(this.pendingTaint.get(key) ?? []), record]);
      return true;
    };
    return {
      runStart: (event) => inner.runStart(event),
      nodeStart: (event) => inner.nodeStart(event),
      // A node run or the run ends only once every step before it is committed.
      nodeEnd: async (event) => (await this.flush(), inner.nodeEnd(event)),
      runEnd: async (event) => (await this.flush(), inner.runEnd(event)),
      taintRecord: (record) => (heldTaint(record) ? undefined : inner.taintRecord?.(record)),
      ...(inner.modelTurn ? { modelTurn: (turn: Parameters<NonNullable<RunSink["modelTurn"]>>[0]) => inner.modelTurn?.(turn) } : {}),
      toolCall(row) {
        if (!row.stepKey) return inner.toolCall(row);
        pending.set(row.stepKey, [...(pending.get(row.stepKey) ?? []), row]);
      },
    };
  }
}

export { JournalUnavailableError };
