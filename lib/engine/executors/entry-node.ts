import { fieldOutputs, readFields, startFields } from "../../graph";
import type { NodeJob, NodeOutcome } from "../run-context";

/** Start and Task Start: put the run's input (or the task call's arguments) on their outputs. */
export function runEntryNode(job: NodeJob): NodeOutcome {
  // A Start's fields follow its trigger (body, headers, query on a webhook; tick on a schedule); a Task Start's are its arguments.
  const fields = job.node.type === "start" ? startFields(job.node.config) : readFields(job.node.config.inputs);
  return { status: "completed", outputs: fieldOutputs(fields, job.entryValues ?? {}), error: null, turns: 0 };
}

/** End and Task End: what arrives on `result` is the run's (or the task's) result. */
export function runExitNode(job: NodeJob): NodeOutcome {
  return { status: "completed", outputs: {}, error: null, turns: 0, result: { value: job.inputs.result ?? null } };
}
