import type { ConfigManifest, EventsManifest, RunManifest } from "../manifest";
import { templateConfig } from "./template-config";
import { renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import type { CallContext } from "./execute-call";
import type { RunFacts } from "./invoke-method";
import { runCalls } from "./run-calls";
import { joinValues, matchedValue, readsEvents, updateDue } from "./stream-outputs";

export type StepResult = { ok: true; outputs: Record<string, unknown> } | { ok: false; message: string };

/**
 * Runs a node as a step: the calls of api/run.yaml, then each `from:
 * response` row of api/events.yaml puts its value on its output. A row whose
 * `when` is false puts nothing. A failed call fails the step. A row with
 * `match` reads the streamed events of the last call (see matchedValue);
 * with `onOutput` its value is also reported live as the stream arrives,
 * at most as often as `throttleMs` / `throttleChars` allow. A node with no
 * calls (a router made of events) reads what arrived as `response`: the
 * inputs by name (`response.signal` for an input called signal).
 */
export async function runStep(
  manifest: { run: RunManifest; events?: EventsManifest; config?: ConfigManifest },
  scope: { config: Record<string, unknown>; inputs: Record<string, unknown>; user?: unknown; run?: RunFacts },
  context: CallContext & { onOutput?: (name: string, value: unknown) => void },
): Promise<StepResult> {
  let config;
  try {
    config = await templateConfig(manifest.config, scope.config, scope.inputs, context.evaluator);
  } catch (error) {
    return { ok: false, message: `a template field of the config could not be filled: ${(error as Error).message}` };
  }
  const base = { config, inputs: scope.inputs, user: scope.user ?? null, run: scope.run ?? null, state: context.state?.get() ?? null };
  const rows = manifest.events ?? [];
  let outcome;
  const live = liveOutputs(rows, base, context);
  try {
    outcome = await runCalls(manifest.run, base, { ...context, onEvent: live.onEvent });
  } catch (error) {
    if (error instanceof CallFailure) return { ok: false, message: error.message };
    throw error;
  } finally {
    // Live updates are computed in order, in the sandbox; none may arrive after the final values.
    await live.settled();
  }
  const response = manifest.run.length === 0 ? scope.inputs : (outcome.last?.response ?? null);
  const lastCall = manifest.run.at(-1);
  const streamed = lastCall !== undefined && (lastCall.transport === "sse" || lastCall.transport === "ndjson");
  const eventScope = { ...base, calls: outcome.calls, response, status: outcome.last?.status ?? null };
  const outputs: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.from !== "response") continue;
    try {
      if (readsEvents(row) && (row.match !== undefined || (streamed && Array.isArray(response)))) {
        const value = await matchedValue(row, Array.isArray(response) ? response : [], eventScope, context.evaluator);
        if (value !== undefined) outputs[row.emit] = value;
        continue;
      }
      if (row.when !== undefined && !(await renderValue(row.when, eventScope, context.evaluator))) continue;
      outputs[row.emit] = row.value === undefined ? eventScope.response : await renderValue(row.value, eventScope, context.evaluator);
    } catch (error) {
      return { ok: false, message: `output '${row.emit}' could not be computed: ${(error as Error).message}` };
    }
  }
  return { ok: true, outputs };
}

/** Reports `match` rows while a stream arrives, throttled per row; the final values come after the calls. */
function liveOutputs(rows: EventsManifest, scope: Record<string, unknown>, context: CallContext & { onOutput?: (name: string, value: unknown) => void }) {
  const live = rows.filter((row) => row.from === "response" && readsEvents(row));
  const onOutput = context.onOutput;
  if (!onOutput || live.length === 0) return { onEvent: context.onEvent, settled: async () => {} };
  const values = new Map<string, unknown[]>();
  const last = new Map<string, { at: number; length: number }>();
  const now = context.now ?? Date.now;
  // Events are handled one after another, in arrival order, though each takes a round trip to the sandbox.
  let queue: Promise<void> = Promise.resolve();
  const handle = async (event: unknown) => {
    for (const row of live) {
      let value: unknown;
      try {
        // One event at a time: each event is evaluated once, however long the stream.
        const one = await matchedValue({ ...row, accumulate: false }, [event], scope, context.evaluator);
        if (one === undefined) continue;
        const seen = values.get(row.emit) ?? [];
        seen.push(one);
        values.set(row.emit, seen);
        value = joinValues(row, seen);
      } catch {
        continue; // the final pass reports a row that fails
      }
      if (!updateDue(row, last.get(row.emit), now(), value)) continue;
      last.set(row.emit, { at: now(), length: typeof value === "string" ? value.length : 0 });
      onOutput(row.emit, value);
    }
  };
  return {
    onEvent: (event: unknown) => {
      context.onEvent?.(event);
      queue = queue.then(() => handle(event));
    },
    settled: () => queue,
  };
}
