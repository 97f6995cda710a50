import { lookupNodeType } from "./builtin-nodes";
import type { ConfigSchema, NodeTypeInfo, NodeTypes } from "./node-type-info";
import type { Workflow, WorkflowEdge, WorkflowNode } from "./workflow";

/**
 * Checks a config value against its node's JSON Schema: null when it passes,
 * otherwise what is wrong, ajv-style: `/maxTurns must be <= 20; must have
 * required property 'baseUrl'`. Injected, so lib/graph needs no JSON Schema
 * engine of its own. Built-in nodes' configs are checked in code instead.
 *
 * @example
 * import { checkArguments } from "@/lib/manifest/json-schema-check";
 * const validateConfig: ConfigValidator = (schema, value) => {
 *   const checked = checkArguments(schema, value);
 *   return checked.ok ? null : checked.message;
 * };
 */
export type ConfigValidator = (schema: ConfigSchema, value: Record<string, unknown>) => string | null;

export interface ValidationOptions {
  /** Without it, manifest nodes' configs are not checked against their schemas. */
  validateConfig?: ConfigValidator;
}

/** What every validation rule reads: the workflow, indexed once. */
export interface ValidationContext {
  workflow: Workflow;
  nodeTypes: NodeTypes;
  options: ValidationOptions;
  /** Each id's first node; later nodes with the same id are reported as duplicates. */
  nodesById: ReadonlyMap<string, WorkflowNode>;
  /** The type of the node with that id: built-in or from nodeTypes; undefined when unknown. */
  typeOf: (nodeId: string) => NodeTypeInfo | undefined;
}

export function createValidationContext(workflow: Workflow, nodeTypes: NodeTypes, options: ValidationOptions = {}): ValidationContext {
  const nodesById = new Map<string, WorkflowNode>();
  for (const node of workflow.nodes) if (!nodesById.has(node.id)) nodesById.set(node.id, node);
  const typeOf = (nodeId: string) => {
    const node = nodesById.get(nodeId);
    return node ? lookupNodeType(nodeTypes, node.type) : undefined;
  };
  return { workflow, nodeTypes, options, nodesById, typeOf };
}

/** True when the edge leaves a conditional output; unknown source types count as conditional (see signal-loops.ts). */
export function leavesConditionalOutput(context: ValidationContext, edge: WorkflowEdge): boolean {
  const info = context.typeOf(edge.source);
  return !info || info.conditionalOutputs.includes(edge.sourceHandle);
}
