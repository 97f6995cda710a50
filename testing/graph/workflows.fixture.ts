import { edge, node, questionStart, titledTaskStart, workflowOf } from "./node-types.fixture";
import type { WorkflowEdge, WorkflowNode } from "../../lib/graph/workflow";

/**
 * Test doubles: workflows over the fixture node types (node-types.fixture.ts)
 * that more than one test of lib/graph reads.
 */

/**
 * start → writer → check; check.retry goes back to the writer's prompt and
 * check.done to the end: a loop whose only way back is a conditional output,
 * so it can end.
 */
export const retryLoop = workflowOf(
  [questionStart, node("writer", "agent"), node("check", "checker"), node("end", "end")],
  [
    edge("signal", "start.question", "writer.prompt"),
    edge("signal", "writer.answer", "check.text"),
    edge("signal", "check.retry", "writer.prompt"),
    edge("signal", "check.done", "end.result"),
  ],
);

/**
 * The head of a task's sub-flow: a titled Task Start `taskId`, offered to the
 * node "agent" as a tool (a task edge to its mcpService), whose topic is the
 * prompt of "researcher", an agent. The caller adds where the researcher's
 * answer goes and the Task End.
 *
 * @example
 * const research = researchTask("task");
 * workflowOf([questionStart, node("agent", "agent"), ...research.nodes, node("task-end", "task-end")], [...research.edges, edge("signal", "researcher.answer", "task-end.result")]);
 */
export function researchTask(taskId: string): { nodes: WorkflowNode[]; edges: WorkflowEdge[] } {
  return {
    nodes: [titledTaskStart(taskId), node("researcher", "agent")],
    edges: [edge("task", `${taskId}.task`, "agent.mcpService"), edge("signal", `${taskId}.topic`, "researcher.prompt")],
  };
}
