import type { TokenUsage } from "../ai";

/** The `_meta` key a Switchboard client puts on every tool call, so the tool side can write the trace row. */
export const callerMetaKey = "switchboard/caller";

/** The `_meta` key of a listed tool that carries its default approval policy (a service method's `approval`). */
export const approvalMetaKey = "switchboard/approval";

export interface CallerMeta {
  nodeRunId: string;
  nodeId: string;
  callId: string;
  usage?: TokenUsage;
  /** The call's journal key and trace row id, when the engine journals the call. */
  stepKey?: string;
  rowId?: string;
}

/** Reads the caller from a request's `_meta`; undefined for an outside host. */
export function readCallerMeta(meta: Record<string, unknown> | undefined): CallerMeta | undefined {
  const value = meta?.[callerMetaKey] as Partial<CallerMeta> | undefined;
  if (!value || typeof value.nodeRunId !== "string" || typeof value.nodeId !== "string") return undefined;
  return {
    nodeRunId: value.nodeRunId,
    nodeId: value.nodeId,
    callId: String(value.callId ?? ""),
    usage: value.usage,
    ...(typeof value.stepKey === "string" ? { stepKey: value.stepKey } : {}),
    ...(typeof value.rowId === "string" ? { rowId: value.rowId } : {}),
  };
}
