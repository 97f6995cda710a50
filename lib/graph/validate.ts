import { configProblems } from "./config-rules";
import { detachedNodeIds } from "./detached-nodes";
import { detachedNodes, outputsReachNothing, unconnectedServices } from "./detached-rules";
import { duplicateConnections, duplicateEdgeIds, edgeProblems, unconnectedRequiredInputs } from "./edge-rules";
import type { GraphProblem } from "./graph-problem";
import { signalLoopsWithoutExit } from "./loop-rules";
import type { NodeTypes } from "./node-type-info";
import { duplicateNodeIds, multipleStarts, unknownNodeTypes, untitledTaskStarts } from "./node-rules";
import { subflowsEnteredFromOutside, unreachableTaskEnds } from "./task-rules";
import { createValidationContext, type ValidationContext, type ValidationOptions } from "./validation-context";
import type { Workflow } from "./workflow";

type Rule = (context: ValidationContext) => GraphProblem[];

/**
 * The rules, in the order their problems are listed. Codes are stable:
 *
 * | code | severity | what |
 * | --- | --- | --- |
 * | duplicate-node-id | error | two nodes share an id |
 * | unknown-node-type | error | a type neither in nodes/ nor built in |
 * | config-invalid | error | a setting fails the node's config schema (field named) |
 * | config-unknown-setting | warning | a setting the schema does not declare |
 * | multiple-starts | error | more than one Start |
 * | task-start-untitled | error | a Task Start without title or description |
 * | duplicate-edge-id | error | two edges share an id |
 * | dangling-edge | error | an edge's source or target is no node |
 * | unknown-handle | error | an edge names a port or connector the node lacks |
 * | edge-kind-mismatch | error | the handles do not make the edge's kind |
 * | signal-type-mismatch | error | a signal's port types do not fit |
 * | signal-type-conversion | warning | an object or list arrives on a text input written out as JSON text |
 * | duplicate-connection | warning | two edges join the same handles |
 * | required-input-unconnected | warning | a required input nothing feeds |
 * | task-end-unreachable | error | a Task Start whose sub-flow reaches no Task End |
 * | task-subflow-entered-from-outside | warning | a signal into a task's sub-flow from outside it |
 * | signal-loop-without-exit | error | a loop whose outputs all fire every time |
 * | node-unconnected | warning | a node no edge touches: it does not run |
 * | service-unconnected | warning | a node offering tools that no agent is wired to |
 * | outputs-reach-nothing | warning | a node that runs but whose outputs no edge takes anywhere: they are lost |
 *
 * A node no edge touches never runs, so its config problems are warnings
 * (the HTTP Request left on the canvas does not stop the run).
 */
const rules: readonly Rule[] = [
  duplicateNodeIds,
  unknownNodeTypes,
  configProblems,
  multipleStarts,
  untitledTaskStarts,
  duplicateEdgeIds,
  edgeProblems,
  duplicateConnections,
  unconnectedRequiredInputs,
  unreachableTaskEnds,
  subflowsEnteredFromOutside,
  signalLoopsWithoutExit,
  detachedNodes,
  unconnectedServices,
  outputsReachNothing,
];

/**
 * Every problem of a parsed workflow, each placed on a node, an edge and a
 * field, and saying how to fix it. Built-in node types are known without
 * asking `nodeTypes`.
 *
 * @example
 * const problems = validateWorkflow(workflow, catalogueNodeTypes(catalogue), { validateConfig });
 * if (hasGraphErrors(problems)) refuseToRun(problems);
 */
export function validateWorkflow(workflow: Workflow, nodeTypes: NodeTypes, options: ValidationOptions = {}): GraphProblem[] {
  const context = createValidationContext(workflow, nodeTypes, options);
  const detached = detachedNodeIds(workflow);
  return rules.flatMap((rule) => rule(context)).map((problem) =>
    problem.code === "config-invalid" && problem.nodeId && detached.has(problem.nodeId)
      ? { ...problem, severity: "warning" as const, message: `${problem.message} It is not connected, so it does not stop a run.` }
      : problem,
  );
}
