import { builtinNodeNames } from "./builtin-nodes";
import type { GraphProblem } from "./graph-problem";
import type { ValidationContext } from "./validation-context";

/** Two nodes with one id: edges could not say which they mean. */
export function duplicateNodeIds(context: ValidationContext): GraphProblem[] {
  const seen = new Set<string>();
  return context.workflow.nodes.flatMap((node, index) => {
    if (!seen.has(node.id)) {
      seen.add(node.id);
      return [];
    }
    return [{
      code: "duplicate-node-id",
      message: `Another node already has the id "${node.id}"; give this one (the ${ordinal(index + 1)} node) a unique id.`,
      nodeId: node.id,
      field: `nodes.${index}.id`,
      severity: "error",
    }];
  });
}

/** A node whose type is neither a folder in nodes/ nor a built-in. */
export function unknownNodeTypes(context: ValidationContext): GraphProblem[] {
  return context.workflow.nodes.flatMap((node) => {
    if (context.typeOf(node.id) !== undefined || context.nodesById.get(node.id) !== node) return [];
    return [{
      code: "unknown-node-type",
      message: `Node "${node.id}" has the type "${node.type}", which is neither a node in nodes/ nor a built-in (${builtinNodeNames.join(", ")}). Pick a type from the palette, or fix nodes/${node.type}/ until the lint passes.`,
      nodeId: node.id,
      field: "type",
      severity: "error",
    }];
  });
}

/** A run has one entry: more than one Start would leave its input ambiguous. */
export function multipleStarts(context: ValidationContext): GraphProblem[] {
  const starts = context.workflow.nodes.filter((node) => node.type === "start");
  return starts.slice(1).map((node) => ({
    code: "multiple-starts",
    message: `Node "${node.id}" is a second Start, after "${starts[0].id}"; a workflow has one. Delete it, or make it a Task Start if it begins a sub-flow offered as a tool.`,
    nodeId: node.id,
    severity: "error",
  }));
}

/** A Task Start offers its sub-flow as a tool named by its title and picked by its description. */
export function untitledTaskStarts(context: ValidationContext): GraphProblem[] {
  return context.workflow.nodes.flatMap((node) => {
    if (node.type !== "task-start") return [];
    const missing = (["title", "description"] as const).filter((key) => {
      const value = node.config[key];
      return typeof value !== "string" || value.trim() === "";
    });
    if (missing.length === 0) return [];
    return [{
      code: "task-start-untitled",
      message: `A Task Start needs a title and a description before it offers anything: fill in its ${missing.join(" and ")} in the inspector.`,
      nodeId: node.id,
      field: `config.${missing[0]}`,
      severity: "error",
    }];
  });
}

function ordinal(position: number): string {
  const suffix = position % 10 === 1 && position % 100 !== 11 ? "st" : position % 10 === 2 && position % 100 !== 12 ? "nd" : position % 10 === 3 && position % 100 !== 13 ? "rd" : "th";
  return `${position}${suffix}`;
}
