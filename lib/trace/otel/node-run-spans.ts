import { formatTraceparent, spanIdOf } from "./trace-context";

/**
 * The node runs being exported live in this process, by id, with their
 * trace: what an outgoing MCP call needs to send a `traceparent` naming
 * its calling agent's span. Kept on globalThis (Next may load a module
 * more than once); an entry lives from its node's start to its end.
 */
const holder = globalThis as typeof globalThis & { switchboardNodeRunTraces?: Map<string, string> };

function traces(): Map<string, string> {
  holder.switchboardNodeRunTraces ??= new Map();
  return holder.switchboardNodeRunTraces;
}

export function rememberNodeRunSpan(nodeRunId: string, traceId: string | undefined): void {
  if (traceId) traces().set(nodeRunId, traceId);
}

export function forgetNodeRunSpan(nodeRunId: string): void {
  traces().delete(nodeRunId);
}

/** The W3C traceparent of a node run exported live here; undefined when it is not (no export configured). */
export function traceparentOfNodeRun(nodeRunId: string): string | undefined {
  const traceId = traces().get(nodeRunId);
  return traceId ? formatTraceparent(traceId, spanIdOf({ kind: "node", nodeRunId })) : undefined;
}
