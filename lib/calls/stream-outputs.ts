import type { EventRow } from "../manifest";
import { renderValue, type Evaluator } from "../sandbox";

/** The type of one streamed event: its `type` field (OpenAI, Anthropic) or its SSE event name. */
export function eventType(event: unknown): string | undefined {
  if (event === null || typeof event !== "object") return undefined;
  const record = event as { type?: unknown; event?: unknown };
  return typeof record.type === "string" ? record.type : typeof record.event === "string" ? record.event : undefined;
}

/**
 * The value of a `match` row over the events streamed so far: each matching
 * event (with `when` true) gives a value; `accumulate` joins text values
 * (or lists the others), otherwise the latest value wins. Undefined when no
 * event matched yet.
 *
 * @example await matchedValue({ emit: "text", match: "delta", value: "return response.text", accumulate: true }, events, scope, evaluator) // "Hello world"
 */
export async function matchedValue(row: EventRow, events: readonly unknown[], scope: Record<string, unknown>, evaluator: Evaluator): Promise<unknown> {
  const values: unknown[] = [];
  for (const event of events) {
    if (!eventMatches(row, event)) continue;
    const eventScope = { ...scope, response: event };
    if (row.when !== undefined && !(await renderValue(row.when, eventScope, evaluator))) continue;
    values.push(row.value === undefined ? event : await renderValue(row.value, eventScope, evaluator));
  }
  return joinValues(row, values);
}

/** Whether a row reads this streamed event: its type is the row's `match` (or one of them); a row with no `match` (accumulating) reads every event. */
export function eventMatches(row: EventRow, event: unknown): boolean {
  if (row.match === undefined) return true;
  const type = eventType(event);
  return type !== undefined && (Array.isArray(row.match) ? row.match.includes(type) : row.match === type);
}

/** A streamed row reads events: it has a `match`, or accumulates over a stream. */
export function readsEvents(row: EventRow): boolean {
  return row.match !== undefined || row.accumulate === true;
}

/**
 * The output of the values a row gave, oldest first: undefined when there
 * are none; the latest without `accumulate`; with it, the text values joined
 * or the values listed, empty ones (undefined, null, "") left out.
 */
export function joinValues(row: EventRow, values: readonly unknown[]): unknown {
  if (!row.accumulate) return values.at(-1);
  const kept = values.filter((value) => value !== undefined && value !== null && value !== "");
  if (values.length === 0) return undefined;
  return kept.every((value) => typeof value === "string") ? kept.join("") : kept;
}

/** Whether a live update of a throttled output is due: pure, so the throttle is tested without a clock. */
export function updateDue(row: EventRow, last: { at: number; length: number } | undefined, now: number, value: unknown): boolean {
  if (!last) return true;
  if (row.throttleChars !== undefined && typeof value === "string") return value.length - last.length >= row.throttleChars;
  if (row.throttleMs !== undefined) return now - last.at >= row.throttleMs;
  return true;
}
