import type { EventsManifest, RunManifest } from "../manifest/schemas";
import { renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import type { CallContext } from "./execute-call";
import { runCalls } from "./run-calls";

export type StepResult = { ok: true; outputs: Record<string, unknown> } | { ok: false; message: string };

/**
 * Runs a node as a step: the calls of api/run.yaml, then each `from:
 * response` row of api/events.yaml puts its value on its output. A row whose
 * `when` is false puts nothing. A failed call fails the step.
 */
export async function runStep(
  manifest: { run: RunManifest; events?: EventsManifest },
  scope: { config: Record<string, unknown>; inputs: Record<string, unknown>; user?: unknown },
  context: CallContext,
): Promise<StepResult> {
  const base = { config: scope.config, inputs: scope.inputs, user: scope.user ?? null };
  let outcome;
  try {
    outcome = await runCalls(manifest.run, base, context);
  } catch (error) {
    if (error instanceof CallFailure) return { ok: false, message: error.message };
    throw error;
  }
  const eventScope = { ...base, calls: outcome.calls, response: outcome.last?.response ?? null, status: outcome.last?.status ?? null };
  const outputs: Record<string, unknown> = {};
  for (const row of manifest.events ?? []) {
    if (row.from !== "response") continue;
    try {
      if (row.when !== undefined && !renderValue(row.when, eventScope, context.evaluator)) continue;
      outputs[row.emit] = row.value === undefined ? eventScope.response : renderValue(row.value, eventScope, context.evaluator);
    } catch (error) {
      return { ok: false, message: `output '${row.emit}' could not be computed: ${(error as Error).message}` };
    }
  }
  return { ok: true, outputs };
}
