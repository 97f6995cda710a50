import type { Client } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutcome } from "../tools";
import { outcomeOf } from "./tool-outcome";

type TaskSession = ReturnType<typeof createTaskSessionFromClient>;
type JsonArguments = Parameters<TaskSession["callTool"]>[1];

/** A raw JSON-RPC request path for 2026-07-28 task traffic (HTTP): ext-tasks' `rawDispatch`. */
export type RawTaskDispatch = NonNullable<Parameters<typeof createTaskSessionFromClient>[1]["rawDispatch"]>;

export interface TaskCallV2Options {
  /** Aborting it cancels the task on the server and answers the caller at once. */
  signal: AbortSignal;
}

/**
 * The task calls of one v2 client session (ext-tasks: the same calls for a
 * 2025-11-25 task server and a 2026-07-28 tasks-extension server), opened
 * on first use and closed with the session.
 */
export class ClientTaskCalls {
  #session: TaskSession | undefined;

  constructor(
    private readonly client: Client,
    private readonly options: { endpointId: string; rawDispatch?: RawTaskDispatch; clientInfo: { name: string; version: string } },
  ) {}

  /** Calls the tool; a task the server makes of it is followed to its end (or cancelled with the signal). */
  async call(params: CallToolRequest["params"], options: TaskCallV2Options): Promise<ToolOutcome> {
    let execution: Awaited<ReturnType<TaskSession["callTool"]>>;
    try {
      execution = await this.session().callTool(params.name, (params.arguments ?? {}) as JsonArguments, { signal: options.signal });
    } catch (error) {
      return { output: options.signal.aborted ? cancelledMessage : (error as Error).message, isError: true };
    }
    const taskId = execution.kind === "task" ? execution.handle.taskId : undefined;
    const cancel = () => void execution.cancel().catch(() => undefined);
    options.signal.addEventListener("abort", cancel, { once: true });
    try {
      const { outcome } = await execution.settle({ signal: options.signal });
      if (outcome.status === "completed") return outcomeOf(outcome.result as CallToolResult);
      if (outcome.status === "cancelled") return { output: `The task ${taskId ?? ""} was cancelled.`.replace("  ", " "), isError: true };
      return { output: outcome.error.message, isError: true };
    } catch (error) {
      if (options.signal.aborted) return { output: taskId ? `The task ${taskId} was cancelled because the run was cancelled.` : cancelledMessage, isError: true };
      return { output: (error as Error).message, isError: true };
    } finally {
      options.signal.removeEventListener("abort", cancel);
      await execution.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.#session?.close().catch(() => undefined);
    this.#session = undefined;
  }

  private session(): TaskSession {
    if (this.#session) return this.#session;
    const { rawDispatch, endpointId, clientInfo } = this.options;
    const modern = this.client.getProtocolEra() === "modern";
    this.#session =
      modern && rawDispatch
        ? createTaskSessionFromClient(this.client, {
            endpointId,
            rawDispatch,
            v2RequestFraming: { protocolVersion: this.client.getNegotiatedProtocolVersion() ?? "2026-07-28", clientInfo, clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
          })
        : createTaskSessionFromClient(this.client, { endpointId });
    return this.#session;
  }
}

const cancelledMessage = "The call was not completed because the run was cancelled.";
