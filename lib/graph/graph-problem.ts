/** How bad a finding about a workflow is: an error stops a run, a warning does not. */
export type GraphSeverity = "error" | "warning";

/**
 * One finding about a workflow document, placed on what the canvas can
 * highlight: a node, an edge, and within it a field (a dot path such as
 * `config.maxTurns` or `targetHandle`).
 */
export interface GraphProblem {
  /** A stable id, e.g. `unknown-node-type`; the list is in lib/graph/validate.ts. */
  code: string;
  /** What is wrong and how to fix it, in words the workflow author understands. */
  message: string;
  nodeId?: string;
  edgeId?: string;
  field?: string;
  severity: GraphSeverity;
}

/** True when any problem is an error (a warning alone does not stop a run). */
export function hasGraphErrors(problems: readonly GraphProblem[]): boolean {
  return problems.some((problem) => problem.severity === "error");
}
