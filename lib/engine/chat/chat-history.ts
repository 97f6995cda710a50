import type { ModelMessage } from "ai";

/** One earlier turn of a chat thread: what the person said and what the workflow answered. */
export interface ChatHistoryTurn {
  user: string;
  /** The turn's final answer; empty when it ended without one (failed, cancelled). */
  assistant: string;
}

/** How much of a thread an agent sees: its last `turns` turns, and within them as many of the latest as fit in `tokens`. */
export interface HistoryWindow {
  turns: number;
  /** 0: no token budget. */
  tokens: number;
}

/** The window when an agent's config says nothing: the last 10 turns, no token budget. */
export const defaultHistoryWindow: HistoryWindow = { turns: 10, tokens: 0 };

/** About four characters a token, the estimate the tool budget uses too. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The thread's earlier turns as the messages the model reads before the new
 * one, oldest first: the last `window.turns` turns, then, when a token budget
 * is set, only the latest of them that fit in it (a turn is kept whole or
 * left out, never cut, so no answer loses its question).
 *
 * @example historyMessages([{ user: "hi", assistant: "hello" }], { turns: 10, tokens: 0 })
 * // → [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }]
 */
export function historyMessages(turns: readonly ChatHistoryTurn[], window: HistoryWindow): ModelMessage[] {
  const recent = window.turns > 0 ? turns.slice(-window.turns) : [];
  let kept = recent;
  if (window.tokens > 0) {
    let spent = 0;
    let first = recent.length;
    for (let index = recent.length - 1; index >= 0; index--) {
      spent += estimateTextTokens(recent[index].user) + estimateTextTokens(recent[index].assistant);
      if (spent > window.tokens) break;
      first = index;
    }
    kept = recent.slice(first);
  }
  return kept.flatMap((turn): ModelMessage[] => [
    { role: "user", content: turn.user },
    ...(turn.assistant ? [{ role: "assistant" as const, content: turn.assistant }] : []),
  ]);
}

/** An agent's window from its config (`historyTurns`, `historyTokens`); a value that is not a whole number ≥ 0 keeps the default. */
export function historyWindowOf(config: Record<string, unknown>): HistoryWindow {
  const whole = (value: unknown, fallback: number) => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback);
  return { turns: whole(config.historyTurns, defaultHistoryWindow.turns), tokens: whole(config.historyTokens, defaultHistoryWindow.tokens) };
}
