import { z } from "zod";
import { declaredServerId, declaredToolName, type McpToolSource, mcpToolSource, type ToolSource, toolSource } from "../graph";
import { isBuiltinToolName } from "./builtin/builtin-names";
import { type DefinedTool, isDefinedTool } from "./define-tool";
import { ToolDefinitionError } from "./tool-definition-error";

// The stored form lives with the workflow document (lib/graph stays free of lib/tools); it is re-exported here.
export {
  toolSource,
  builtinToolSource,
  customToolSource,
  mcpToolSource,
  type ToolSource,
  type BuiltinToolSource,
  type CustomToolSource,
  type McpToolSource,
} from "../graph";

/**
 * What authors may write wherever a tool source is expected. Each form
 * becomes a structured ToolSource at the boundary (normalizeToolSources),
 * so stored documents never carry the sugar:
 *
 * | written                                  | stored                                          |
 * | ---------------------------------------- | ----------------------------------------------- |
 * | `"save_to_memory"` (a built-in's name)   | `{ type: "builtin", name: "save_to_memory" }`   |
 * | `"lookup_order"` (any other name)        | `{ type: "custom", name: "lookup_order" }`      |
 * | a `defineTool()` value                   | `{ type: "custom", name }`                      |
 * | `{ mcp: "web-search", tools: ["search"] }` | `{ type: "mcp", serverId, toolNames }`        |
 * | a ToolSource, camelCase or snake_case    | the ToolSource, camelCase                       |
 */
export type ToolSourceInput =
  | string
  | DefinedTool
  | { mcp: string; tools?: string[] }
  | ToolSource
  | { type: "mcp"; server_id: string; tool_names?: string[] };

const mcpSugar = z.strictObject({
  mcp: declaredServerId,
  tools: z.array(z.string().min(1, "must not be empty")).min(1, "list at least one tool, or leave tools out for all of them").optional(),
});

/**
 * One source from what an author wrote. Throws ToolDefinitionError
 * (`invalid-tool-source`) naming the field at fault.
 */
export function normalizeToolSource(input: unknown, field = "tool"): ToolSource {
  if (typeof input === "string") {
    const name = declaredToolName.safeParse(input);
    if (!name.success) throw invalid(field, `${JSON.stringify(input)} is not a tool name: ${name.error.issues[0].message}`);
    return isBuiltinToolName(input) ? { type: "builtin", name: input } : { type: "custom", name: input };
  }
  if (isDefinedTool(input)) return { type: "custom", name: input.name };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid(field, "a tool source is a name, a defineTool() value, { mcp: serverId, tools? } or { type: builtin | custom | mcp, ... }");
  }
  if ("mcp" in input) {
    const sugar = mcpSugar.safeParse(input);
    if (!sugar.success) throw invalid(field, issuesText(sugar.error));
    const source: McpToolSource = { type: "mcp", serverId: sugar.data.mcp };
    return sugar.data.tools ? { ...source, toolNames: sugar.data.tools } : source;
  }
  const parsed = toolSource.safeParse(camelCased(input as Record<string, unknown>));
  if (!parsed.success) throw invalid(field, issuesText(parsed.error));
  return parsed.data;
}

/**
 * A list of sources from what an author wrote (a node's `tools`, an agent
 * type's `tools` default), in order, with exact repeats dropped.
 *
 * @example
 * normalizeToolSources(["save_to_memory", lookupOrder, { mcp: "web-search", tools: ["search"] }])
 * // [{ type: "builtin", name: "save_to_memory" }, { type: "custom", name: "lookup_order" },
 * //  { type: "mcp", serverId: "web-search", toolNames: ["search"] }]
 */
export function normalizeToolSources(inputs: unknown, field = "tools"): ToolSource[] {
  if (!Array.isArray(inputs)) throw invalid(field, "tools must be a list");
  const seen = new Set<string>();
  const sources: ToolSource[] = [];
  inputs.forEach((input, index) => {
    const source = normalizeToolSource(input, `${field}.${index}`);
    const key = JSON.stringify(source);
    if (seen.has(key)) return;
    seen.add(key);
    sources.push(source);
  });
  return sources;
}

/** The implementations among what an author wrote: the defineTool() values, to register on the run. */
export function definedToolsIn(inputs: readonly unknown[]): DefinedTool[] {
  return inputs.filter(isDefinedTool);
}

/** The sugar as a zod schema: parses any ToolSourceInput into a ToolSource. */
export const toolSourceInput = z.unknown().transform((input, context): ToolSource => {
  try {
    return normalizeToolSource(input);
  } catch (error) {
    context.addIssue({ code: "custom", message: (error as Error).message });
    return z.NEVER;
  }
});

const snakeKeys: Record<string, string> = { server_id: "serverId", tool_names: "toolNames" };

function camelCased(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [snakeKeys[key] && !(snakeKeys[key] in input) ? snakeKeys[key] : key, value]));
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message)).join("; ");
}

function invalid(field: string, message: string): ToolDefinitionError {
  return new ToolDefinitionError("invalid-tool-source", `${field}: ${message}`, { field });
}
