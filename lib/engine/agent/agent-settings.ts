import type { EventsManifest, ToolExchangeManifest } from "../../manifest/schemas";
import { renderValue, type Evaluator } from "../../sandbox";

/** An agent's loop limits, rendered from its toolExchange (`"{{ config.maxTurns }}"` and such). */
export async function loopLimits(exchange: ToolExchangeManifest, scope: Record<string, unknown>, evaluator: Evaluator): Promise<{ maxTurns: number; stuckAfterRepeats: number }> {
  const whole = async (value: unknown, fallback: number) => {
    const number = Number(await renderValue(value, scope, evaluator));
    return Number.isInteger(number) && number >= 1 ? number : fallback;
  };
  return { maxTurns: await whole(exchange.maxTurns, 10), stuckAfterRepeats: Math.max(2, await whole(exchange.stuckAfterRepeats, 3)) };
}

/** The outputs an agent puts out when its loop completes: each `from: complete` events row, over `text`. */
export async function completionOutputs(events: EventsManifest | undefined, scope: Record<string, unknown>, text: string, evaluator: Evaluator): Promise<Record<string, unknown>> {
  const outputs: Record<string, unknown> = {};
  const eventScope = { ...scope, text };
  for (const row of events ?? []) {
    if (row.from !== "complete") continue;
    if (row.when !== undefined && !(await renderValue(row.when, eventScope, evaluator))) continue;
    outputs[row.emit] = row.value === undefined ? text : await renderValue(row.value, eventScope, evaluator);
  }
  return outputs;
}
