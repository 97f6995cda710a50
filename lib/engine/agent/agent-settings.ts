import type { EventsManifest, ToolExchangeManifest } from "../../manifest/schemas";
import { renderValue, type Evaluator } from "../../sandbox";

/** An agent's loop limits, rendered from its toolExchange (`"{{ config.maxTurns }}"` and such). */
export function loopLimits(exchange: ToolExchangeManifest, scope: Record<string, unknown>, evaluator: Evaluator): { maxTurns: number; stuckAfterRepeats: number } {
  const whole = (value: unknown, fallback: number) => {
    const number = Number(renderValue(value, scope, evaluator));
    return Number.isInteger(number) && number >= 1 ? number : fallback;
  };
  return { maxTurns: whole(exchange.maxTurns, 10), stuckAfterRepeats: Math.max(2, whole(exchange.stuckAfterRepeats, 3)) };
}

/** The outputs an agent puts out when its loop completes: each `from: complete` events row, over `text`. */
export function completionOutputs(events: EventsManifest | undefined, scope: Record<string, unknown>, text: string, evaluator: Evaluator): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  const eventScope = { ...scope, text };
  for (const row of events ?? []) {
    if (row.from !== "complete") continue;
    if (row.when !== undefined && !renderValue(row.when, eventScope, evaluator)) continue;
    outputs[row.emit] = row.value === undefined ? text : renderValue(row.value, eventScope, evaluator);
  }
  return outputs;
}
