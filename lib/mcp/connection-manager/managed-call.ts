import type { McpSession } from "../mcp-session";
import { type CallMeta, raceTimeout, type ToolOutcome } from "../../tools";
import { outcomeOf } from "../tool-outcome";
import { traceMetaOf } from "../trace-meta";
import type { Admission, CircuitBreaker } from "./circuit-breaker";
import { isConnectionLoss } from "./connection-loss";
import type { Semaphore } from "./semaphore";
import type { ServerLink } from "./server-link";
import type { ManifestTool } from "./tool-manifest";

/** Everything one call of a managed tool goes through. */
export interface ManagedCallContext {
  serverId: string;
  tool: ManifestTool;
  /** 0: no timeout. */
  timeoutMs: number;
  /** The server's concurrency cap. */
  slots: Semaphore;
  /** The tool's circuit breaker; null when breakers are off. */
  breaker: CircuitBreaker | null;
  /** The server's link as of now (a new one after `reconnect`); throws when it cannot be had. */
  link(): Promise<ServerLink>;
}

type Attempt = { kind: "answered"; outcome: ToolOutcome } | { kind: "cancelled"; outcome: ToolOutcome };

/**
 * One call of a server's tool through the manager's guards, in order: the
 * tool's circuit breaker (an open circuit answers at once, without calling),
 * the server's concurrency cap (wait in line), the session (connecting or
 * reconnecting first), the per-tool timeout (a hung call is cancelled and
 * answers "timed out after N ms"). A call that fails because the session
 * was lost (the server process was killed) reconnects once and is asked
 * again. Every failure is an isError outcome: the agent's loop goes on.
 */
export async function managedCall(context: ManagedCallContext, args: unknown, meta: CallMeta): Promise<ToolOutcome> {
  const admission: Admission = context.breaker?.admit() ?? { ok: true, trial: false };
  if (!admission.ok) return { output: pausedMessage(context, admission), isError: true };
  let release: () => void;
  try {
    release = await context.slots.acquire(meta.signal);
  } catch {
    context.breaker?.abandon(admission);
    return cancelledOutcome;
  }
  try {
    const attempt = await callOnSession(context, args, meta);
    if (attempt.kind === "cancelled") context.breaker?.abandon(admission);
    else if (attempt.outcome.isError) context.breaker?.failure(admission);
    else context.breaker?.success(admission);
    return attempt.outcome;
  } finally {
    release();
  }
}

async function callOnSession(context: ManagedCallContext, args: unknown, meta: CallMeta): Promise<Attempt> {
  for (let attempt = 1; ; attempt++) {
    let link: ServerLink;
    let client: McpSession;
    try {
      link = await context.link();
      client = await link.client(meta.signal);
    } catch (error) {
      if (meta.signal?.aborted) return { kind: "cancelled", outcome: cancelledOutcome };
      return answered((error as Error).message);
    }
    const timed = await raceTimeout((signal) => invoke(client, context.tool, args, signal, meta), { timeoutMs: context.timeoutMs, signal: meta.signal });
    switch (timed.kind) {
      case "done":
        return { kind: "answered", outcome: timed.value };
      case "cancelled":
        return { kind: "cancelled", outcome: cancelledOutcome };
      case "timed-out":
        return answered(`'${context.tool.name}' on MCP server '${context.serverId}' timed out after ${context.timeoutMs} ms; the call was cancelled`);
      case "threw":
        if (attempt === 1 && isConnectionLoss(timed.error)) {
          // The session is gone (a killed process, a closed session): reconnect once and ask again.
          link.lost(client);
          continue;
        }
        return answered(`'${context.tool.name}' on MCP server '${context.serverId}' failed: ${(timed.error as Error).message}`);
    }
  }
}

async function invoke(client: McpSession, tool: ManifestTool, args: unknown, signal: AbortSignal, meta: CallMeta): Promise<ToolOutcome> {
  const trace = traceMetaOf(meta.nodeRunId);
  const params = { name: tool.name, arguments: (args ?? {}) as Record<string, unknown>, ...(Object.keys(trace).length > 0 ? { _meta: trace } : {}) };
  if (tool.taskRequired) return client.callTaskTool(params, signal);
  return outcomeOf(await client.callTool(params, signal, meta.ask));
}

function answered(output: string): Attempt {
  return { kind: "answered", outcome: { output, isError: true } };
}

const cancelledOutcome: ToolOutcome = { output: "The call was not completed because the run was cancelled.", isError: true };

function pausedMessage(context: ManagedCallContext, refusal: Extract<Admission, { ok: false }>): string {
  const what = `'${context.tool.name}' on MCP server '${context.serverId}'`;
  if (refusal.state === "half-open") return `Not called: ${what} is paused after repeated failures and one trial call is testing it now (circuit half-open); try again shortly.`;
  const options = context.breaker?.options;
  const failures = options ? `failed ${options.failureThreshold} times in a row` : "kept failing";
  return `Not called: ${what} ${failures}, so calls to it are paused (circuit open); it will be tried again in ${Math.ceil(refusal.retryInMs / 1000)} s.`;
}
