import type { ToolDefinition } from "../../ai/model";

export { discoveryThresholdTokens, estimateTokens } from "../../tools/tool-budget";

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
