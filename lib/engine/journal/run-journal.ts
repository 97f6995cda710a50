import type { TaintRecord, ToolCallRow } from "../../trace";

/**
 * The run's journal, as the engine sees it: "was this step recorded? then
 * give me its result" and "record this step". Steps are committed in the
 * order they were taken, and everything before a step that is not safe to
 * repeat is committed before that step begins (see StepRecorder.record), so
 * a run whose process died is resumed by replaying what was recorded and
 * going on from the first step that was not. The engine never learns where
 * the journal lives (SQLite, Postgres, memory).
 *
 * Keys are stable across a resume: `<node run key>/t<turn>` for a model
 * turn, `…/t<turn>/c<index>` for a tool call, `…/step` for a step node's
 * result, with `/start` and `/choice` beside a call that is not safe to
 * repeat. A node run key is the node id and its n-th activation
 * (`agent#1`), under the key of the task call that started it, if any.
 */
export interface RunJournal {
  /** The step recorded under this key, if any (synchronous: the journal was read when the run began). */
  lookup(key: string): RecordedStep | undefined;
  /**
   * Commits the step and the trace rows it wrote, together (one transaction
   * where the store has them). Resolves once the step is durable; rejects
   * with JournalUnavailableError when the store cannot take it.
   */
  record(step: RecordedStep, rows?: StepRows): Promise<void>;
  /**
   * Commits several steps, in order, in one transaction: all of them or
   * none. A journal that has it lets steps safe to repeat commit behind the
   * run (StepRecorder batches them); one without it commits each step
   * before the run goes on.
   */
  recordSteps?(entries: ReadonlyArray<JournalEntry>): Promise<void>;
}

/** A step as a batch carries it: the step, the rows it wrote, when it was taken, and whether losing it costs only doing it again. */
export interface JournalEntry {
  step: RecordedStep;
  rows: StepRows;
  recordedAt: Date;
  /** False for a step something not safe to repeat waits for (a call's start, a wait for a person): the store makes its commit survive a crash of the database server too. */
  repeatable: boolean;
}

/** waiting: a call asked a person for approval (when, under which policy); decision: their answer (approve, deny), and its trace row once applied. model-context: the tools and instructions offered, kept once per run. */
export type StepKind = "model-turn" | "model-context" | "call-start" | "tool-call" | "node-result" | "choice" | "waiting" | "decision";

export interface RecordedStep {
  key: string;
  kind: StepKind;
  value: unknown;
}

/** What a step wrote while it ran, committed with it. */
export interface StepRows {
  toolCalls: ToolCallRow[];
  taint: TaintRecord[];
}

/** What a person chose for a call that may have run when its process died (run-again, skip with a result, fail the run). */
export type AttentionChoice = { action: "run-again" } | { action: "skip"; result: unknown } | { action: "fail"; reason?: string };

/** The journal could not be written or read (the database went away): the run stops here, unfinished, and resumes later. */
export class JournalUnavailableError extends Error {
  override name = "JournalUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
