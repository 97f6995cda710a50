import type { Workflow, WorkflowNode } from "./workflow";

/** Built-ins that may stand alone: a Start alone is a run that only echoes its input. */
const standAlone = new Set(["start", "task-start"]);

/**
 * A node that no edge touches (and that is not a Start or Task Start): left
 * on the canvas while the author works. Nothing reaches it, so it never runs,
 * and what is wrong with its settings is a warning, not a reason to refuse
 * the run (see validateWorkflow and createRunState).
 *
 * @example detachedNodeIds(workflow).has("http-request") // true for a node just added from the palette
 */
export function detachedNodeIds(workflow: Pick<Workflow, "nodes" | "edges">): ReadonlySet<string> {
  const touched = new Set<string>();
  for (const edge of workflow.edges) {
    touched.add(edge.source);
    touched.add(edge.target);
  }
  return new Set(workflow.nodes.filter((node) => !touched.has(node.id) && !standAlone.has(node.type)).map((node: WorkflowNode) => node.id));
}
