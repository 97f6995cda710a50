import type { AgentTool } from "./agent-tool";
import type { DefinedTool } from "./define-tool";
import type { ToolBinding } from "./tool-binding";
import { tracedTool } from "./traced-tool";

/** The server name custom tools carry on the trace. */
export const customToolServer = "custom";

/**
 * A registered custom tool bound to a run: each call is parsed, timed and
 * traced. When the tool is declared `taints: true` and its code ran, the
 * result is recorded in the run's taint registry (source `custom_tool`);
 * the model still gets the result exactly as the tool returned it.
 */
export function customAgentTool(definition: DefinedTool, binding: ToolBinding): AgentTool {
  return tracedTool(
    {
      name: definition.name,
      server: customToolServer,
      description: definition.description,
      inputSchema: definition.inputSchema,
      retrySafe: definition.idempotent,
      hints: { readOnly: definition.readOnly, destructive: definition.destructive },
      async run(args, { rowId, meta }) {
        const { ran, ...outcome } = await definition.execute(args, { runId: binding.runId, nodeId: meta.callerNodeId, nodeRunId: meta.nodeRunId, callId: meta.callId, signal: meta.signal });
        const tainted = definition.taints && ran;
        if (tainted) {
          await binding.taint.recordToolResult({ source: "custom_tool", server: customToolServer, tool: definition.name, nodeId: meta.callerNodeId, nodeRunId: meta.nodeRunId, toolCallId: rowId });
        }
        return { ...outcome, tainted };
      },
    },
    binding,
  );
}
