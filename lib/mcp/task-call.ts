import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolRequest, type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutcome } from "../tools";
import { outcomeOf } from "./tool-outcome";

export interface TaskCallOptions {
  /** Aborting it cancels the task on the server (tasks/cancel) and answers the caller at once. */
  signal?: AbortSignal;
  /** How long the server should keep the task's result, in ms. */
  ttl?: number;
}

/**
 * Calls a task-required tool as an MCP task: the server answers with the
 * task's id at once, the client follows its status until it ends and then
 * reads its result. A task that failed answers with its stored error result
 * (isError), so the model reads why; a cancelled one says so.
 *
 * @example
 * const outcome = await callTaskTool(client, { name: "simulate-research-query", arguments: { topic: "otters" } });
 */
export async function callTaskTool(client: Client, params: CallToolRequest["params"], options: TaskCallOptions = {}): Promise<ToolOutcome> {
  let taskId: string | undefined;
  let failure = "the task ended without a result";
  const stream = client.experimental.tasks.callToolStream(params, CallToolResultSchema, { task: { ttl: options.ttl ?? 10 * 60_000 }, signal: options.signal });
  try {
    for await (const message of stream) {
      if (message.type === "taskCreated") taskId = message.task.taskId;
      if (message.type === "result") return outcomeOf(message.result as CallToolResult);
      if (message.type === "error") failure = message.error.message;
    }
  } catch (error) {
    failure = (error as Error).message;
  }
  if (taskId && options.signal?.aborted) return cancel(client, taskId);
  if (taskId) return (await storedFailure(client, taskId)) ?? { output: failure, isError: true };
  return { output: failure, isError: true };
}

/** The caller gave up (the run was cancelled): the task is cancelled too, without the aborted signal. */
async function cancel(client: Client, taskId: string): Promise<ToolOutcome> {
  try {
    await client.experimental.tasks.cancelTask(taskId);
  } catch {
    // Already terminal, or the session is gone: nothing is left running either way.
  }
  return { output: `The task ${taskId} was cancelled because the run was cancelled.`, isError: true };
}

/** A failed task keeps the result that says why; read it so the model sees the reason, not just "failed". */
async function storedFailure(client: Client, taskId: string): Promise<ToolOutcome | undefined> {
  try {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status === "cancelled") return { output: `The task ${taskId} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : "."}`, isError: true };
    if (task.status !== "failed") return undefined;
    const result = (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as CallToolResult;
    return { ...outcomeOf(result), isError: true };
  } catch {
    return undefined;
  }
}
