import type { EventsManifest, ToolExchangeManifest } from "../../manifest";
import { renderValue, type Evaluator } from "../../sandbox";
import { matchedValue, readsEvents } from "../../calls";
import type { Conversation } from "../../ai";

/** An agent's loop limits, rendered from its toolExchange (`"{{ config.maxTurns }}"` and such). */
export async function loopLimits(exchange: ToolExchangeManifest, scope: Record<string, unknown>, evaluator: Evaluator): Promise<{ maxTurns: number; stuckAfterRepeats: number }> {
  const whole = async (value: unknown, fallback: number) => {
    const number = Number(await renderValue(value, scope, evaluator));
    return Number.isInteger(number) && number >= 1 ? number : fallback;
  };
  return { maxTurns: await whole(exchange.maxTurns, 10), stuckAfterRepeats: Math.max(2, await whole(exchange.stuckAfterRepeats, 3)) };
}

/** What an output has put out so far, as a `from: complete` row reads it in `events`: one entry per output, its latest value. */
export interface PutOut {
  emit: string;
  value: unknown;
}

/**
 * The outputs of an agent's `from: response` rows when its loop ends. A row
 * with `match` (or accumulating) reads the streamed events of all its model
 * turns, in order (a turn that was not streamed counts as one event, its
 * reply); any other row reads the last turn's reply as `response`. An agent
 * on an SDK adapter has no wire replies: its rows put out nothing.
 */
export async function responseOutputs(events: EventsManifest | undefined, scope: Record<string, unknown>, replies: readonly unknown[], evaluator: Evaluator): Promise<Record<string, unknown>> {
  const outputs: Record<string, unknown> = {};
  // An SDK adapter keeps no wire replies: its from: response rows have nothing to read (as before).
  if (replies.length === 0) return outputs;
  const streamed = replies.flatMap((reply) => (Array.isArray(reply) ? reply : [reply]));
  const last = replies.at(-1) ?? null;
  for (const row of events ?? []) {
    if (row.from !== "response") continue;
    try {
      if (readsEvents(row)) {
        const value = await matchedValue(row, streamed, scope, evaluator);
        if (value !== undefined) outputs[row.emit] = value;
        continue;
      }
      const rowScope = { ...scope, response: last };
      if (row.when !== undefined && !(await renderValue(row.when, rowScope, evaluator))) continue;
      outputs[row.emit] = row.value === undefined ? last : await renderValue(row.value, rowScope, evaluator);
    } catch (error) {
      throw new Error(`output '${row.emit}' could not be computed: ${(error as Error).message}`);
    }
  }
  return outputs;
}

/** The model replies of a conversation's turns (live or replayed from the journal), collected as they pass. */
export function collectReplies(conversation: Conversation): { conversation: Conversation; replies: unknown[] } {
  const replies: unknown[] = [];
  return {
    replies,
    conversation: {
      ...conversation,
      turn: async (tools, signal) => {
        const result = await conversation.turn(tools, signal);
        const response = (result.replay as { response?: unknown } | undefined)?.response;
        if (response !== undefined) replies.push(response);
        return result;
      },
    },
  };
}

/**
 * The outputs an agent puts out when its loop completes: each `from:
 * complete` events row, over `text` and `events` (what the node's other rows
 * have put out, one entry per output with its latest value).
 */
export async function completionOutputs(events: EventsManifest | undefined, scope: Record<string, unknown>, text: string, evaluator: Evaluator, putOut: readonly PutOut[] = []): Promise<Record<string, unknown>> {
  const outputs: Record<string, unknown> = {};
  const eventScope = { ...scope, text, events: putOut.map((entry) => ({ ...entry })) };
  for (const row of events ?? []) {
    if (row.from !== "complete") continue;
    if (row.when !== undefined && !(await renderValue(row.when, eventScope, evaluator))) continue;
    outputs[row.emit] = row.value === undefined ? text : await renderValue(row.value, eventScope, evaluator);
  }
  return outputs;
}
