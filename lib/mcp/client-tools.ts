import { noRequestTimeout } from "./request-timeout";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentTool, CallMeta, ToolOutcome } from "../tools";
import { callSignal } from "./call-signal";
import { approvalMetaKey, callerMetaKey } from "./caller-meta";
import { protocolHints } from "./tool-hints";
import { traceMetaOf } from "./trace-meta";
import { callTaskTool } from "./task-call";
import { outcomeOf } from "./tool-outcome";

export { outcomeOf } from "./tool-outcome";

export interface ClientToolsOptions {
  /**
   * Put the caller in each call's `_meta`, so the server writes the trace
   * row. On for Switchboard's own servers; off for outside servers, which
   * have no use for it (the client-side wrapper writes their rows).
   */
  sendCaller?: boolean;
}

/**
 * The tools of a connected MCP server, as an agent calls them. Each call
 * carries the caller in `_meta`, so the server writes the trace row. A tool
 * the server lists as task-required (`execution.taskSupport: "required"`)
 * is called as an MCP task and followed to its end. A protocol error
 * (unknown tool, arguments that fail the schema) comes back to the model as
 * an error result it can correct.
 */
export async function agentToolsFromClient(client: Client, server: string, options: ClientToolsOptions = {}): Promise<AgentTool[]> {
  const { tools } = await client.listTools();
  return tools.map((tool) => {
    const taskRequired = tool.execution?.taskSupport === "required";
    return {
      name: tool.name,
      server,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
      // A task's sub-flow journals its own steps, so running a task call again replays what it had done.
      retrySafe: taskRequired || tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true,
      // Unset annotations take the protocol's defaults: not read-only means possibly destructive.
      hints: protocolHints({ readOnly: tool.annotations?.readOnlyHint, destructive: tool.annotations?.destructiveHint, openWorld: tool.annotations?.openWorldHint }),
      ...(tool._meta?.[approvalMetaKey] === undefined ? {} : { approval: tool._meta[approvalMetaKey] }),
      call: async (args: unknown, meta: CallMeta) => {
        const params = callParams(tool.name, args, meta, options.sendCaller ?? true);
        // Each call its own signal, tied to the run's and let go of when the call ends.
        const call = callSignal(meta.signal);
        try {
          return await (taskRequired ? callTaskTool(client, params, { signal: call.signal }) : callThrough(client, params, call.signal));
        } finally {
          call.release();
        }
      },
    };
  });
}

function callParams(name: string, args: unknown, meta: CallMeta, sendCaller: boolean): CallToolRequest["params"] {
  const caller = { nodeRunId: meta.nodeRunId, nodeId: meta.callerNodeId, callId: meta.callId, usage: meta.usage, stepKey: meta.stepKey, rowId: meta.rowId };
  const _meta = { ...(sendCaller ? { [callerMetaKey]: caller } : {}), ...traceMetaOf(meta.nodeRunId) };
  return { name, arguments: args as Record<string, unknown>, ...(Object.keys(_meta).length > 0 ? { _meta } : {}) };
}

async function callThrough(client: Client, params: CallToolRequest["params"], signal: AbortSignal): Promise<ToolOutcome> {
  try {
    // The method's own calls carry their timeouts and retries; the SDK's 60 s request limit must not cut them short.
    const result = (await client.callTool(params, undefined, { signal, timeout: noRequestTimeout })) as CallToolResult;
    return outcomeOf(result);
  } catch (error) {
    return { output: (error as Error).message, isError: true };
  }
}
