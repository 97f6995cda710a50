import { z } from "zod";
import { mcpServerConfig, mcpServerConnector, mcpServerNodeType } from "./mcp-server-node";
import { fieldPorts, inputFieldList, readFields } from "./input-fields";
import type { ConfigIssue, ConfigSchema, NodePort, NodeTypeInfo, NodeTypes } from "./node-type-info";
import { startConfig, startPorts, startScheduleIssues, startSettingsOrder } from "./start-trigger";

/**
 * The node kinds the engine brings itself, described in the same shape the
 * catalogue gives a manifest node (title, description, kind, ports,
 * connectors, config schema), so the palette, the canvas and the engine
 * treat them alike. Their config is a zod schema here; the JSON Schema the
 * inspector draws is generated from it, so the two never drift.
 *
 * - `start`: the run's entry. Its trigger (see start-trigger.ts) says how a
 *   run starts: by hand, with the input fields its config lists; on a
 *   webhook, putting out body, headers, query and deliveryId; on a schedule,
 *   putting out tick. Each field becomes an output, plus `started` (a
 *   signal). A run's input is checked against the fields (see
 *   run-input.ts). At most one per workflow.
 * - `end`: its `result` input is the run's output. One input only, on
 *   purpose: a run's output and a task's result are then one value alike,
 *   and several values travel together as one object.
 * - `task-start`: a sub-flow offered to agents as one tool. Config: title,
 *   description, whenToUse and input fields (the tool's arguments). Outputs
 *   like Start's, plus the bottom handle `task` that a task edge joins to an
 *   agent's tool connector.
 * - `task-end`: its `result` input is the task's result.
 * - `mcp-server`: a server of the MCP server registry, by id (see
 *   mcp-server-node.ts). It offers the server's tools (all, or the
 *   `toolNames` chosen) on its `tools` connector; a service edge to an
 *   agent's tool socket gives the agent those tools. Never a step.
 *
 * Built-in names win over a folder in nodes/ of the same name.
 */

/** The handle at the bottom of a Task Start. */
export const taskHandle = "task";

const taskStartConfig = z.strictObject({
  title: z.string().default("").meta({ title: "Title", description: "The tool's name as the agent sees it, e.g. Summarize an article." }),
  description: z
    .string()
    .default("")
    .meta({ title: "Description", description: "What the task achieves and what it returns: the agent reads this to decide whether to call it.", "ui:widget": "textarea" }),
  whenToUse: z.string().default("").meta({ title: "When to use", description: "When an agent should pick this task over other tools.", "ui:widget": "textarea" }),
  inputs: inputFieldList.meta({ title: "Input fields", description: "The task's arguments; each becomes an output of this node." }),
});

const noConfig = z.strictObject({});

const resultInput = (description: string): NodePort => ({ name: "result", type: "any", description, required: true });

/** A built-in node kind, shaped like a catalogue node plus what only built-ins have. */
export interface BuiltinNode extends NodeTypeInfo {
  name: BuiltinNodeName;
  whenToUse: string;
  category: "Built-in" | "MCP servers";
  "ui:order"?: string[];
  configSchema: ConfigSchema;
}

export const builtinNodeNames = ["start", "end", "task-start", "task-end", mcpServerNodeType] as const;
export type BuiltinNodeName = (typeof builtinNodeNames)[number];

const common = { category: "Built-in" as const, kind: "PromiseNode" as const, serviceConnectors: [], hasToolExchange: false, conditionalOutputs: [] };

/** Every built-in node kind, in palette order. */
export const builtinNodes: readonly BuiltinNode[] = [
  {
    ...common,
    name: "start",
    title: "Start",
    description: "Where a run begins: puts out each field of the run's input, then `started`.",
    whenToUse: "Every workflow that takes input or runs steps; one per workflow.",
    inputs: [],
    outputs: fieldPorts([]),
    "ui:order": startSettingsOrder,
    ...configured(startConfig, startPorts, startScheduleIssues),
  },
  {
    ...common,
    name: "end",
    title: "End",
    description: "Where a run ends: the value that reaches `result` is the run's output.",
    whenToUse: "To give the run an output; a run may end without one.",
    inputs: [resultInput("The run's output.")],
    outputs: [],
    ...configured(noConfig),
  },
  {
    ...common,
    name: "task-start",
    title: "Task Start",
    description: "Offers the sub-flow that follows it to an agent as one tool, named by its title and taking its input fields.",
    whenToUse: "An agent should be able to run a whole sub-flow as a tool; draw a task edge from the bottom handle to the agent.",
    inputs: [],
    outputs: fieldPorts([]),
    taskHandle,
    "ui:order": ["title", "description", "whenToUse", "inputs"],
    ...configured(taskStartConfig, (config) => ({ inputs: [], outputs: fieldPorts(readFields(config.inputs)) })),
  },
  {
    ...common,
    name: "task-end",
    title: "Task End",
    description: "Where a task's sub-flow ends: the value that reaches `result` is what the calling agent reads.",
    whenToUse: "At the end of every Task Start's sub-flow.",
    inputs: [resultInput("The task's result, returned to the agent that called the task.")],
    outputs: [],
    ...configured(noConfig),
  },
  {
    ...common,
    category: "MCP servers",
    name: mcpServerNodeType,
    title: "MCP server",
    description: "A server of the MCP server registry: offers its tools (all, or the ones chosen) to the agents it is wired to.",
    whenToUse: "An agent should use the tools of a registered MCP server; wire its top connector to the agent's tool socket.",
    inputs: [],
    outputs: [],
    serviceConnectors: [
      { name: mcpServerConnector, description: "The server's tools; wire it to an agent's tool socket.", serviceType: "mcp", isService: true, methods: [] },
    ],
    "ui:order": ["serverId", "toolNames"],
    ...configured(mcpServerConfig),
  },
];

const byName = new Map<string, BuiltinNode>(builtinNodes.map((node) => [node.name, node]));

/** The built-in node kind of that name, if it is one. */
export function builtinNodeType(type: string): BuiltinNode | undefined {
  return byName.get(type);
}

/** True for `start`, `end`, `task-start`, `task-end` and `mcp-server`. */
export function isBuiltinNodeType(type: string): type is BuiltinNodeName {
  return byName.has(type);
}

/** Looks a type up among the built-ins first, then in the caller's node types. */
export function lookupNodeType(nodeTypes: NodeTypes, type: string): NodeTypeInfo | undefined {
  return byName.get(type) ?? nodeTypes(type);
}

/** The config schema (generated), the config check and, when given, the config-dependent ports. */
/**
 * The config schema (generated), the config check and, when given, the
 * config-dependent ports. `moreIssues` checks what a schema cannot say (a
 * cron expression); an issue on a field the schema already flagged is left out.
 */
function configured(
  schema: z.ZodType<Record<string, unknown>>,
  portsFor?: NodeTypeInfo["portsFor"],
  moreIssues?: (config: Record<string, unknown>) => ConfigIssue[],
): Pick<NodeTypeInfo, "checkConfig" | "portsFor"> & { configSchema: ConfigSchema } {
  const { $schema: _dialect, ...configSchema } = z.toJSONSchema(schema, { io: "input", target: "draft-7" });
  return {
    configSchema: configSchema as unknown as ConfigSchema,
    checkConfig: (config) => {
      const issues = configIssues(schema, config);
      const flagged = new Set(issues.map((issue) => issue.field));
      return [...issues, ...(moreIssues?.(config) ?? []).filter((issue) => !flagged.has(issue.field))];
    },
    ...(portsFor ? { portsFor } : {}),
  };
}

function configIssues(schema: z.ZodType, config: Record<string, unknown>): ConfigIssue[] {
  const result = schema.safeParse(config);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: [...issue.path, key].map(String).join("."), message: `unknown setting "${key}"; remove it` }));
    }
    const field = issue.path.map(String).join(".");
    return [field ? { field, message: issue.message } : { message: issue.message }];
  });
}
