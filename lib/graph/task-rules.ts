import type { GraphProblem } from "./graph-problem";
import { taskSubflows } from "./task-subflow";
import type { ValidationContext } from "./validation-context";

/** A task's sub-flow must reach a Task End, or the calling agent never gets a result. */
export function unreachableTaskEnds(context: ValidationContext): GraphProblem[] {
  return [...taskSubflows(context.workflow)].flatMap(([taskStartId, members]) => {
    const reachesEnd = members.some((id) => context.nodesById.get(id)?.type === "task-end");
    if (reachesEnd) return [];
    return [{
      code: "task-end-unreachable",
      message: `No Task End follows Task Start "${taskStartId}", so a call of the task would never return; connect its sub-flow to a Task End's "result".`,
      nodeId: taskStartId,
      severity: "error" as const,
    }];
  });
}

/**
 * A node inside a task's sub-flow that a signal from outside it also
 * reaches: it runs only when the task is called, so that signal never
 * starts it. A warning, since the wiring may be deliberate but usually is not.
 */
export function subflowsEnteredFromOutside(context: ValidationContext): GraphProblem[] {
  return [...taskSubflows(context.workflow)].flatMap(([taskStartId, members]) => {
    const inside = new Set(members);
    return context.workflow.edges
      .filter((edge) => edge.kind === "signal" && inside.has(edge.target) && !inside.has(edge.source) && context.nodesById.has(edge.source))
      .map((edge) => ({
        code: "task-subflow-entered-from-outside",
        message: `Node "${edge.target}" belongs to the sub-flow of Task Start "${taskStartId}" and runs only when that task is called, so the signal from "${edge.source}" never starts it. Use a separate node outside the task.`,
        nodeId: edge.target,
        edgeId: edge.id,
        severity: "warning" as const,
      }));
  });
}
