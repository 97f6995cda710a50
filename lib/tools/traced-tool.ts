import { randomUUID } from "node:crypto";
import type { AgentTool, CallMeta, ToolOutcome } from "./agent-tool";
import type { ToolBinding } from "./tool-binding";

/** A call's outcome and whether its result is outside content (the row's `tainted`). */
export interface TracedOutcome extends ToolOutcome {
  tainted?: boolean;
}

export interface TracedToolOptions extends Omit<AgentTool, "call"> {
  /** Answers one call; `rowId` is the id its trace row will have (for the taint registry). */
  run(args: unknown, call: { rowId: string; meta: CallMeta }): Promise<TracedOutcome>;
}

/**
 * An AgentTool that is its own tool side: each call writes exactly one
 * trace row (arguments, result or error, taint, timing, the turn's tokens),
 * nested under the calling node run. Used by the built-in, custom and
 * registry-MCP layers; service nodes and tasks write theirs in their servers.
 */
export function tracedTool(options: TracedToolOptions, binding: Pick<ToolBinding, "runId" | "recordCall">): AgentTool {
  const { run, ...tool } = options;
  return {
    ...tool,
    async call(args, meta) {
      const rowId = meta.rowId ?? randomUUID();
      const started = new Date();
      let outcome: TracedOutcome;
      try {
        outcome = await run(args, { rowId, meta });
      } catch (error) {
        // A tool side that throws still answers the model and writes its row.
        outcome = { output: `${tool.name} failed: ${(error as Error).message}`, isError: true };
      }
      await binding.recordCall({
        id: rowId,
        runId: binding.runId,
        nodeRunId: meta.nodeRunId,
        tool: tool.name,
        server: tool.server,
        caller: meta.callerNodeId,
        arguments: args ?? {},
        result: outcome.isError ? null : (outcome.structured ?? outcome.output),
        error: outcome.isError ? outcome.output : null,
        isError: outcome.isError,
        tainted: outcome.tainted ?? false,
        startedAt: started.toISOString(),
        durationMs: Date.now() - started.getTime(),
        inputTokens: meta.usage?.inputTokens ?? null,
        outputTokens: meta.usage?.outputTokens ?? null,
        ...(meta.stepKey ? { stepKey: meta.stepKey } : {}),
      });
      const { tainted: _tainted, ...clean } = outcome;
      return clean;
    },
  };
}
