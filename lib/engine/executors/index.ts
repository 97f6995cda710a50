import { isBuiltinNodeType } from "../../graph";
import type { NodeJob, NodeOutcome, RunContext } from "../run-context";
import { runAgentNode } from "./agent-node";
import { runEntryNode, runExitNode } from "./entry-node";
import { MissingCredentialError } from "./credentials";
import { runStepNode } from "./step-node";
import { PersonFailedRun } from "../journal/journalled-call";
import { RunInterruption } from "../journal/step-recorder";

/** Picks the executor by what the node is: entry, exit, agent or step. A failure is an outcome, never a throw. */
export async function executeNode(job: NodeJob, context: RunContext): Promise<NodeOutcome> {
  const type = job.node.type;
  try {
    if (type === "start" || type === "task-start") return runEntryNode(job);
    if (type === "end" || type === "task-end") return runExitNode(job);
    if (isBuiltinNodeType(type)) throw new Error(`no executor for built-in '${type}'`);
    const manifest = context.manifestOf(type);
    if (!manifest) return failed(`node type '${type}' is not in the catalogue (or its manifests are broken)`);
    if (manifest.toolExchange) return await runAgentNode(job, manifest, context);
    // A node of events alone (a router such as if/else) runs as a step with no calls.
    if (manifest.run || manifest.events) return await runStepNode(job, manifest, context);
    return failed(`${manifest.interface.title} only offers tools; it does not run as a step`);
  } catch (error) {
    if (error instanceof RunInterruption) throw error;
    if (error instanceof PersonFailedRun) return failed(error.message);
    if (context.signal.aborted) return { status: "cancelled", outputs: {}, error: "the run was cancelled", turns: 0 };
    if (error instanceof MissingCredentialError) return failed(error.message);
    return failed(`${job.node.label ?? type} failed: ${(error as Error).message}`);
  }
}

function failed(message: string): NodeOutcome {
  return { status: "failed", outputs: {}, error: message, turns: 0 };
}
