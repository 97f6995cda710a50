import type { ModelTurnLike } from "./trace-types";

/** What a model costs, from the agent's api/toolExchange.yaml `prices`. */
export interface ModelPrices {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * A model turn as the run reports it (the `modelTurn` sink event) and as
 * the journal keeps it (a RunStep of kind model-turn, `<node run key>/t<n>`):
 * one record is both the replay entry and the trace row, so there is no
 * second copy. The definitions sent (system prompt addition, tools) are
 * kept once per run under `contextKey` and referenced here.
 */
export interface ModelTurnRow extends ModelTurnLike {
  runId: string;
  /** The journal key, e.g. `agent#1/t2`. */
  stepKey: string;
  nodeId: string;
  /** How many of its node run's tool calls had returned when the turn started: its place among them. */
  callsBefore: number;
  /** The journal key of what was offered (`context/<hash>`): system prompt addition and tool definitions. */
  contextKey: string | null;
  /** The results handed back to the model since the turn before (the conversation's new part). */
  sentResults: Array<{ id: string; name: string; isError: boolean; chars: number }>;
}

/** The context a run's turns reference: stored once per distinct value. */
export interface ModelContext {
  instructions: string;
  tools: Array<{ name: string; description?: string; parameters?: unknown }>;
}

/**
 * @example
 * turnCost({ inputTokens: 1000, outputTokens: 500 }, { inputPerMillion: 2, outputPerMillion: 8 }) // 0.006
 */
export function turnCost(usage: { inputTokens?: number | null; outputTokens?: number | null }, prices: ModelPrices | undefined): number | null {
  if (!prices || usage.inputTokens == null || usage.outputTokens == null) return null;
  return Math.round(((usage.inputTokens * prices.inputPerMillion + usage.outputTokens * prices.outputPerMillion) / 1_000_000) * 1e9) / 1e9;
}

/**
 * A turn's row as its journal step keeps it: without the answer's text and
 * tool calls and the results sent, which the step's value holds once
 * already (`turn`, `sent`); turnRowOf puts them back. Steps recorded before
 * this kept them in the row too, and read the same.
 */
export type StoredTurnRow = Omit<ModelTurnRow, "runId" | "stepKey" | "text" | "toolCalls" | "sentResults"> & Partial<Pick<ModelTurnRow, "text" | "toolCalls" | "sentResults">>;

/** The row a turn's journal step stores (see StoredTurnRow). */
export function storedTurnRow(row: Omit<ModelTurnRow, "runId" | "stepKey">): StoredTurnRow {
  const { text: _text, toolCalls: _toolCalls, sentResults: _sentResults, ...stored } = row;
  return stored;
}

/** The recorded value of a model-turn journal step, as far as the trace needs it (older entries lack the row fields). */
interface JournalTurnValue {
  turn?: { text?: string; toolCalls?: ModelTurnRow["toolCalls"] };
  sent?: { results?: ModelTurnRow["sentResults"] };
  row?: StoredTurnRow;
}

/**
 * The trace row of a model-turn journal step's value, whole; null for an
 * entry recorded before turns were traced (no row).
 *
 * @example
 * turnRowOf({ turn: { text: "", toolCalls: [call] }, sent: { results: [] }, row: { nodeRunId: "n1", … } }).toolCalls // [call]
 */
export function turnRowOf(value: unknown): Omit<ModelTurnRow, "runId" | "stepKey"> | null {
  const recorded = value as JournalTurnValue | null;
  const row = recorded?.row;
  if (!row || typeof row !== "object" || typeof row.nodeRunId !== "string") return null;
  return { ...row, text: row.text ?? recorded.turn?.text ?? "", toolCalls: row.toolCalls ?? recorded.turn?.toolCalls ?? [], sentResults: row.sentResults ?? recorded.sent?.results ?? [] };
}

/**
 * The turn rows of a run from its journal's model-turn steps; entries
 * recorded before turns were traced (no `row`) are left out.
 *
 * @example
 * modelTurnsFromJournal("run-1", [{ key: "agent#1/t1", value: { turn, row } }]) // [{ stepKey: "agent#1/t1", ... }]
 */
export function modelTurnsFromJournal(runId: string, steps: ReadonlyArray<{ key: string; value: unknown }>): ModelTurnRow[] {
  const rows: ModelTurnRow[] = [];
  for (const step of steps) {
    const row = turnRowOf(step.value);
    if (row) rows.push({ ...row, runId, stepKey: step.key });
  }
  return rows.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.stepKey.localeCompare(b.stepKey));
}
