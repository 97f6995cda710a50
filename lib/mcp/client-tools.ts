import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentTool, CallMeta, ToolOutcome } from "../tools/agent-tool";
import { callerMetaKey } from "./caller-meta";

/**
 * The tools of a connected MCP server, as an agent calls them. Each call
 * carries the caller in `_meta`, so the server writes the trace row. A
 * protocol error (unknown tool, arguments that fail the schema) comes back
 * to the model as an error result it can correct.
 */
export async function agentToolsFromClient(client: Client, server: string): Promise<AgentTool[]> {
  const { tools } = await client.listTools();
  return tools.map((tool) => ({
    name: tool.name,
    server,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    call: (args: unknown, meta: CallMeta) => callThrough(client, tool.name, args, meta),
  }));
}

async function callThrough(client: Client, name: string, args: unknown, meta: CallMeta): Promise<ToolOutcome> {
  try {
    const result = (await client.callTool(
      { name, arguments: args as Record<string, unknown>, _meta: { [callerMetaKey]: { nodeRunId: meta.nodeRunId, nodeId: meta.callerNodeId, callId: meta.callId, usage: meta.usage } } },
      undefined,
      { signal: meta.signal },
    )) as CallToolResult;
    return outcomeOf(result);
  } catch (error) {
    return { output: (error as Error).message, isError: true };
  }
}

/** The text a model reads from an MCP result: its text blocks, or the structured content as JSON. */
export function outcomeOf(result: CallToolResult): ToolOutcome {
  const texts = (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [`[${block.type} content]`]));
  const output = texts.length ? texts.join("\n") : JSON.stringify(result.structuredContent ?? null);
  return { output, isError: Boolean(result.isError), structured: result.structuredContent };
}
