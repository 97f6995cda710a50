import { z } from "zod";
import { notAWorkflow, plainIssue } from "./plain-issues";
import type { GraphProblem } from "./graph-problem";
import { toolSource } from "./tool-source";
import { wiredPolicy } from "../manifest/browser";

/** A policy where a tool is wired: a bare verdict (`"ask"`) or the full policy object. */

/**
 * The workflow document: serializable JSON, the unit that is saved, versioned,
 * exported and run. It names node types, tools and tasks; it holds no secrets
 * and no code. Unknown keys are dropped when parsing (a canvas may add
 * `selected` or `measured`), so the parsed document is always the clean shape.
 */

/** What an edge carries: values between ports, tools to an agent, or a task offered as a tool. */
export const edgeKind = z.enum(["signal", "service", "task"]);
export type EdgeKind = z.infer<typeof edgeKind>;

// "__proto__" would set a prototype where the run state indexes nodes by id.
const identity = z.string().min(1, "must not be empty").refine((value) => value !== "__proto__", "is reserved; choose another");

export const workflowNode = z.object({
  id: identity.meta({ description: "Unique within the workflow; edges refer to it." }),
  type: identity.meta({ description: "A node name from nodes/ (e.g. offline-agent) or a built-in: start, end, task-start, task-end." }),
  position: z
    .object({ x: z.number(), y: z.number() })
    .meta({ description: "Where the node sits on the canvas." }),
  config: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: "Values for the node type's config schema; defaults fill the rest at run time." }),
  label: z.string().optional().meta({ description: "The name shown on the canvas instead of the type's title." }),
  tools: z
    .array(toolSource)
    .optional()
    .meta({
      description:
        "Agents only: the node-level tool override. When set, these tools replace the agent type's own declared tools (its config's `tools` default) for this node; tools wired on the canvas are kept. Structured sources only: { type: builtin | custom, name } or { type: mcp, serverId, toolNames? }.",
    }),
  approvals: z
    .record(z.string().min(1, "name a tool: `tool`, `server/tool`, `server/*` or `*`"), wiredPolicy)
    .optional()
    .meta({ description: "Agents only: approval policies for the tools this agent calls, keyed by `server/tool`, `tool`, `server/*` or `*` (most specific wins). Absent: the edge's, the server's or the method's default, else the workflow default (a destructive tool, and any tool that is not read-only once the context is tainted, ask). A server default is a floor this cannot loosen without an owner, and in a tainted context only an allow naming the tool counts." }),
});
export type WorkflowNode = z.infer<typeof workflowNode>;

export const workflowEdge = z.object({
  id: identity.meta({ description: "Unique within the workflow." }),
  kind: edgeKind.meta({ description: "signal: output port → input port; service: tool provider → agent; task: Task Start → agent." }),
  source: identity.meta({ description: "The id of the node the edge starts at." }),
  sourceHandle: identity.meta({ description: "An output port, an `isService: true` connector, or a Task Start's `task` handle." }),
  target: identity.meta({ description: "The id of the node the edge ends at." }),
  targetHandle: identity.meta({ description: "An input port, or an agent's `isService: false` connector." }),
  approval: wiredPolicy.optional().meta({ description: "service and task edges: the approval policy for every tool that comes through this edge (the agent node's `approvals` entry for a tool wins over it)." }),
});
export type WorkflowEdge = z.infer<typeof workflowEdge>;

export const workflowDocument = z.object({
  version: z.literal(1).meta({ description: "The document format's version; 1 today." }),
  name: z.string().default("Untitled workflow").meta({ description: "The workflow's name." }),
  description: z.string().optional(),
  nodes: z.array(workflowNode).default([]),
  edges: z.array(workflowEdge).default([]),
});
export type Workflow = z.infer<typeof workflowDocument>;
/** The document as written before parsing: defaults (name, config, lists) may be left out. */
export type WorkflowInput = z.input<typeof workflowDocument>;

export type ParsedWorkflow = { ok: true; workflow: Workflow } | { ok: false; problems: GraphProblem[] };

/**
 * Parses a workflow document from untrusted JSON. Each problem names the
 * field's path (e.g. `nodes.2.position.x`) and, inside a node or edge that
 * has an id, that id.
 *
 * @example
 * const parsed = parseWorkflow(JSON.parse(text));
 * if (!parsed.ok) showProblems(parsed.problems);
 */
export function parseWorkflow(json: unknown): ParsedWorkflow {
  const result = workflowDocument.safeParse(json);
  if (result.success) return { ok: true, workflow: result.data };
  const stranger = notAWorkflow(json);
  if (stranger) return { ok: false, problems: [{ code: "invalid-workflow", message: stranger, severity: "error" }] };
  const problems = result.error.issues.map((issue): GraphProblem => {
    const field = issue.path.map(String).join(".");
    return {
      code: "invalid-workflow",
      message: plainIssue(issue, json),
      ...owner(json, issue.path),
      ...(field ? { field } : {}),
      severity: "error",
    };
  });
  return { ok: false, problems };
}

/** The node or edge id a path points into, when the raw document has one there. */
function owner(json: unknown, path: readonly PropertyKey[]): { nodeId?: string; edgeId?: string } {
  const [list, index] = path;
  if ((list !== "nodes" && list !== "edges") || typeof index !== "number") return {};
  const items = (json as Record<string, unknown> | null)?.[list];
  const id = Array.isArray(items) ? (items[index] as { id?: unknown } | null)?.id : undefined;
  if (typeof id !== "string" || id === "") return {};
  return list === "nodes" ? { nodeId: id } : { edgeId: id };
}
