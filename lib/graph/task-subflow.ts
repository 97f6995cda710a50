import type { Workflow } from "./workflow";

/**
 * A Task Start's sub-flow: the Task Start itself and every node reachable
 * from it along signal edges (which ends at a Task End). Those nodes run only
 * when an agent calls the task, never as steps of the workflow's own run.
 *
 * @example taskSubflow(workflow, "summarize") // ["summarize", "fetch", "writer", "summarize-end"]
 */
export function taskSubflow(workflow: Pick<Workflow, "edges">, taskStartId: string): string[] {
  const successors = signalSuccessors(workflow);
  const reached = new Set<string>([taskStartId]);
  const queue = [taskStartId];
  while (queue.length > 0) {
    for (const next of successors.get(queue.shift() as string) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return [...reached];
}

/** Every Task Start's sub-flow, by Task Start id. */
export function taskSubflows(workflow: Pick<Workflow, "nodes" | "edges">): Map<string, string[]> {
  const starts = workflow.nodes.filter((node) => node.type === "task-start");
  return new Map(starts.map((node) => [node.id, taskSubflow(workflow, node.id)]));
}

/** The nodes of the workflow's own run: all but those inside a task's sub-flow, in document order. */
export function topLevelNodeIds(workflow: Pick<Workflow, "nodes" | "edges">): string[] {
  const inTasks = new Set([...taskSubflows(workflow).values()].flat());
  return workflow.nodes.map((node) => node.id).filter((id) => !inTasks.has(id));
}

/** For each node id, the nodes its signal edges lead to. */
export function signalSuccessors(workflow: Pick<Workflow, "edges">): Map<string, string[]> {
  const successors = new Map<string, string[]>();
  for (const edge of workflow.edges) {
    if (edge.kind !== "signal") continue;
    successors.set(edge.source, [...(successors.get(edge.source) ?? []), edge.target]);
  }
  return successors;
}
