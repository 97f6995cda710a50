import { z } from "zod";

/**
 * The stored form of a tool an agent declares: one of three layers, told
 * apart by `type`. This is what a workflow document holds; authoring sugar
 * (a bare name, `{ mcp: "web-search" }`, a `defineTool()` value) is turned
 * into it at the boundary by lib/tools/tool-source.ts. A source names a tool
 * or a server and never carries an implementation, a transport or a secret.
 */

/** A tool name a graph may refer to: letters, digits, - and _ (at most 64). */
export const declaredToolName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool name uses letters, digits, - and _ (at most 64)");

/** An MCP server's id in the registry (the registry's own rule). */
export const declaredServerId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "a server id uses letters, digits, - and _ (at most 64), starting with a letter or digit");

export const builtinToolSource = z
  .strictObject({
    type: z.literal("builtin"),
    name: declaredToolName.meta({ description: "A tool the engine ships: save_to_memory, read_memory, get_current_time." }),
  })
  .meta({ description: "A built-in tool, provided by the engine with no connection." });

export const customToolSource = z
  .strictObject({
    type: z.literal("custom"),
    name: declaredToolName.meta({ description: "The name a `defineTool()` registration on the run answers to." }),
  })
  .meta({ description: "A tool defined in code and registered on the run; the graph holds only its name." });

export const mcpToolSource = z
  .strictObject({
    type: z.literal("mcp"),
    serverId: declaredServerId.meta({ description: "A server in the MCP server registry." }),
    toolNames: z
      .array(z.string().min(1, "must not be empty"))
      .min(1, "list at least one tool, or leave toolNames out for all of them")
      .optional()
      .meta({ description: "Only these tools of the server; absent: all of them." }),
  })
  .meta({ description: "Tools of a registered MCP server, referred to by its id; the connection details stay in the registry." });

/** The three declaration shapes, discriminated on `type`. */
export const toolSource = z.discriminatedUnion("type", [builtinToolSource, customToolSource, mcpToolSource]);

export type BuiltinToolSource = z.infer<typeof builtinToolSource>;
export type CustomToolSource = z.infer<typeof customToolSource>;
export type McpToolSource = z.infer<typeof mcpToolSource>;
export type ToolSource = z.infer<typeof toolSource>;
