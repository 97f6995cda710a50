import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * What a host reads as a task's result, wherever the task ran: the run's
 * Task server in-process, or a worker that ran an outside host's task as a
 * queued run (app/runs/outside-task-run.ts). One shape for both, so a host
 * cannot tell where its sub-flow ran.
 */

/** The Task End's value as a tool result: text for the model, structured content when it is an object. */
export function taskResult(value: unknown): CallToolResult {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  const structured = value !== null && typeof value === "object" && !Array.isArray(value);
  return { content: [{ type: "text", text }], ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) };
}

/** A task that failed: its result says why (isError), as a tool error does. */
export function failedResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
