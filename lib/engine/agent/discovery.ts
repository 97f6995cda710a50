import type { ToolDefinition } from "../../ai";

export { discoveryThresholdTokens, estimateTokens } from "../../tools";

export const searchToolsName = "search_tools";
export const callToolName = "call_tool";

export const searchToolsDefinition: ToolDefinition = {
  name: searchToolsName,
  description:
    "Find tools for a job described in plain words: the few best, each with its name, server, description and input schema. Call one with call_tool.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "The job, e.g. 'tell the on-call engineer the database is down'." },
      limit: { type: "integer", minimum: 1, maximum: 10, description: "How many (default 3)." },
    },
    required: ["query"],
    additionalProperties: false,
  },
};

export const callToolDefinition: ToolDefinition = {
  name: callToolName,
  description: "Call a tool search_tools found, by name, with arguments that match its input schema.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string", description: "The name search_tools gave." },
      arguments: { type: "object", additionalProperties: true },
    },
    required: ["name"],
    additionalProperties: false,
  },
};

/**
 * What stays in the history of a search_tools answer once one of the tools
 * it found was chosen: how many it found and which was chosen, not their
 * schemas (most of its size), so every later turn stops paying for them.
 * The offered tools stay the same; the model can search again.
 *
 * @example searchSummary(5, "send_message") // "Found 5 tools; send_message was chosen. Search again to see the others."
 */
export function searchSummary(found: number, chosen: string): string {
  return `Found ${found === 1 ? "1 tool" : `${found} tools`}; ${chosen} was chosen. Search again to see the others.`;
}
