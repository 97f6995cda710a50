import { type Call, type NodeManifest, configValues } from "../../manifest";
import { runStep } from "../../calls";
import { attemptsOf, planCall, PersonFailedRun } from "../journal/journalled-call";
import { RunInterruption } from "../journal/step-recorder";
import type { NodeJob, NodeOutcome, RunContext } from "../run-context";
import { resolveCredentials } from "./credentials";
import { stepResultKey } from "../../run-model";

/**
 * A node with api/run.yaml and no toolExchange: its calls once, then its
 * outputs. The outcome is journalled under `<node run key>/step`: a resumed
 * run takes it from there. A step caught mid-flight by a crash runs again
 * only when every call is safe to repeat (see stepIsRetrySafe); otherwise
 * the run waits for a person.
 */
export async function runStepNode(job: NodeJob, manifest: NodeManifest, context: RunContext): Promise<NodeOutcome> {
  const { recorder } = context;
  const key = stepResultKey(job.runKey);
  const recorded = recorder.lookup(key)?.value as NodeOutcome | undefined;
  if (recorded) {
    if (recorded.loops) restoreLoops(context, recorded.loops);
    return recorded;
  }
  const attempt = attemptsOf(recorder, key);
  const plan = planCall(undefined, attempt.attempts > 0, attempt.choice, stepIsRetrySafe(manifest.run ?? []));
  if (plan.action === "needs-attention") {
    const message = `the step ${job.node.label ?? job.node.id} had started when its worker stopped, and its calls are not marked safe to repeat: a person decides whether to run it again, skip it with a result, or fail the run`;
    throw new RunInterruption("needs-attention", message, { key, choiceKey: attempt.choiceKey, nodeId: job.node.id, nodeRunId: job.nodeRunId, tool: manifest.interface.name, server: job.node.id, arguments: job.inputs, message });
  }
  if (plan.action === "fail") throw new PersonFailedRun(plan.reason);
  if (plan.action === "skip") {
    const outputs = plan.result !== null && typeof plan.result === "object" && !Array.isArray(plan.result) ? (plan.result as Record<string, unknown>) : {};
    const skipped: NodeOutcome = { status: "completed", outputs, error: null, turns: 0 };
    await recorder.record({ key, kind: "node-result", value: skipped });
    return skipped;
  }
  recorder.ensureRunning();
  if (plan.action === "run" && plan.markStart) await recorder.record({ key: attempt.next.start, kind: "call-start", value: { step: job.node.id } });
  // A step safe to repeat still begins only once what gave it its inputs is durable: a resume repeats it with the same inputs.
  else await recorder.settled();
  const config = configValues(manifest.config, job.node.config);
  const credentials = await resolveCredentials(manifest, context);
  const result = await runStep(
    { run: manifest.run ?? [], events: manifest.events, config: manifest.config },
    { config, inputs: job.inputs, run: { id: context.runId, workflowId: context.workflowId, nodeId: job.node.id, startedBy: null } },
    { evaluator: context.env.evaluator, ...credentials, allowedOrigins: context.env.allowedPrivateOrigins, signal: context.signal, loops: context.loops },
  );
  if (context.signal.aborted) return { status: "cancelled", outputs: {}, error: result.ok ? "the run was cancelled" : result.message, turns: 0 };
  const outcome: NodeOutcome = result.ok ? { status: "completed", outputs: result.outputs, error: null, turns: 0 } : { status: "failed", outputs: {}, error: result.message, turns: 0 };
  if ((manifest.run ?? []).some((call) => call.loop !== undefined)) outcome.loops = Object.fromEntries(structuredClone([...context.loops]));
  await recorder.record({ key, kind: "node-result", value: outcome });
  return outcome;
}

/** A replayed step's loops become the run's again (a resumed run goes on from where the loop was). */
function restoreLoops(context: RunContext, loops: NonNullable<NodeOutcome["loops"]>): void {
  context.loops.clear();
  for (const [key, loop] of Object.entries(loops)) context.loops.set(key, structuredClone(loop));
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/** Every call is a literal GET, HEAD or OPTIONS, or declares `idempotent: true`. */
export function stepIsRetrySafe(calls: readonly Call[]): boolean {
  return calls.every((call) => call.idempotent === true || (typeof call.method === "string" && safeMethods.has(call.method.toUpperCase())));
}
