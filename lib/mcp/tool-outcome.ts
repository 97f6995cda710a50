import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutcome } from "../tools";

/** The text a model reads from an MCP result: its text blocks, or the structured content as JSON. */
export function outcomeOf(result: CallToolResult): ToolOutcome {
  const texts = (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [`[${block.type} content]`]));
  const output = texts.length ? texts.join("\n") : JSON.stringify(result.structuredContent ?? null);
  return { output, isError: Boolean(result.isError), structured: result.structuredContent };
}
