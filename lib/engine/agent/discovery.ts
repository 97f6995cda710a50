import type { ToolDefinition } from "../../ai/model";

/** Above this many tokens of tool definitions, an agent starts with search_tools and call_tool instead. */
export const discoveryThresholdTokens = 2000;

/**
 * A rough token count of tool definitions as a model reads them: about four
 * characters a token over the JSON. Good enough to choose a mode; the
 * choice is made once per run, so the offered list never changes.
 */
export function estimateTokens(definitions: readonly ToolDefinition[]): number {
  return Math.ceil(JSON.stringify(definitions).length / 4);
}

export const searchToolsName = "search_tools";
export const callToolName = "call_tool";

export const searchToolsDefinition: ToolDefinition = {
  name: searchToolsName,
  description:
    "Find the tools that fit a job. Describe the job in plain words; the answer lists the few best tools, each with its name, the server it comes from, what it does and its full input schema. Then call one with call_tool.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "The job in plain words, e.g. 'tell the on-call engineer the database is down'." },
      limit: { type: "integer", minimum: 1, maximum: 10, description: "How many tools to list (default 5)." },
    },
    required: ["query"],
    additionalProperties: false,
  },
};

export const callToolDefinition: ToolDefinition = {
  name: callToolName,
  description: "Call a tool found with search_tools, by its name, with arguments that match its input schema. Returns the tool's result.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string", description: "The tool's name, exactly as search_tools gave it." },
      arguments: { type: "object", description: "The tool's arguments.", additionalProperties: true },
    },
    required: ["name"],
    additionalProperties: false,
  },
};
