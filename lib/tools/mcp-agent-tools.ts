import type { AgentTool } from "./agent-tool";
import type { ToolBinding } from "./tool-binding";
import { tracedTool } from "./traced-tool";

/**
 * A registry MCP server's tools bound to a run: each call writes one trace
 * row (server = the registry id) and, as outside content, is recorded in
 * the run's taint registry (source `mcp`). The model gets the server's
 * result unchanged. A policy the server claims for its own tools
 * (`_meta["switchboard/approval"]`) is outside content and ignored; the
 * registry's server default (set on /servers) applies instead.
 */
export function mcpAgentTools(serverId: string, tools: readonly AgentTool[], binding: ToolBinding): AgentTool[] {
  return tools.map((tool) =>
    tracedTool(
      {
        name: tool.name,
        server: serverId,
        description: tool.description,
        inputSchema: tool.inputSchema,
        retrySafe: tool.retrySafe,
        hints: tool.hints,
        ...(tool.serverApproval === undefined ? {} : { serverApproval: tool.serverApproval }),
        async run(args, { rowId, meta }) {
          const outcome = await tool.call(args, meta);
          await binding.taint.recordToolResult({ source: "mcp", server: serverId, tool: tool.name, nodeId: meta.callerNodeId, nodeRunId: meta.nodeRunId, toolCallId: rowId });
          return { ...outcome, tainted: true };
        },
      },
      binding,
    ),
  );
}
