import { fieldOutputs, readFields } from "../../graph";
import type { NodeJob, NodeOutcome } from "../run-context";

/** Start and Task Start: put the run's input (or the task call's arguments) on their outputs. */
export function runEntryNode(job: NodeJob): NodeOutcome {
  const fields = readFields(job.node.config.inputs);
  return { status: "completed", outputs: fieldOutputs(fields, job.entryValues ?? {}), error: null, turns: 0 };
}

/** End and Task End: what arrives on `result` is the run's (or the task's) result. */
export function runExitNode(job: NodeJob): NodeOutcome {
  return { status: "completed", outputs: {}, error: null, turns: 0, result: { value: job.inputs.result ?? null } };
}
