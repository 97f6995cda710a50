import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { AgentTool } from "../tools";
import type { ToolCallRow } from "../trace";
import { agentToolsFromClient } from "./client-tools";

export interface ExternalServerToolsOptions {
  client: Client;
  /** The server's id in the registry; it names the server on the trace. */
  server: string;
  runId: string;
  /** Writes the trace row of each call. */
  recordCall(row: ToolCallRow): void | Promise<void>;
}

/**
 * An outside MCP server's tools, as an agent calls them. The server knows
 * nothing of Switchboard's trace, so this wrapper is Switchboard's tool side
 * for it and writes the one row per call. Task-required tools run as MCP
 * tasks (see agentToolsFromClient). Results are outside content: tainted.
 */
export async function externalServerTools(options: ExternalServerToolsOptions): Promise<AgentTool[]> {
  const tools = await agentToolsFromClient(options.client, options.server, { sendCaller: false });
  return tools.map((tool) => ({
    ...tool,
    async call(args, meta) {
      const started = new Date();
      const outcome = await tool.call(args, meta);
      await options.recordCall({
        id: randomUUID(),
        runId: options.runId,
        nodeRunId: meta.nodeRunId,
        tool: tool.name,
        server: options.server,
        caller: meta.callerNodeId,
        arguments: args ?? {},
        result: outcome.isError ? null : (outcome.structured ?? outcome.output),
        error: outcome.isError ? outcome.output : null,
        isError: outcome.isError,
        tainted: true,
        startedAt: started.toISOString(),
        durationMs: Date.now() - started.getTime(),
        inputTokens: meta.usage?.inputTokens ?? null,
        outputTokens: meta.usage?.outputTokens ?? null,
      });
      return outcome;
    },
  }));
}
