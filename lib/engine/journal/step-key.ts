import { createHash } from "node:crypto";

/**
 * The key of a node's n-th activation within a run (or within the task call
 * `parentToolCallId` started): the same on every resume, since the planner
 * activates nodes in the same order given the same recorded results.
 *
 * @example nodeRunKey("agent", 2, null) // "agent#2"
 */
export function nodeRunKey(nodeId: string, activation: number, parentToolCallId: string | null): string {
  return `${parentToolCallId ? `${parentToolCallId}/` : ""}${nodeId}#${activation}`;
}

/**
 * A UUID-shaped id derived from the run and a journal key, so a node run or
 * a trace row written again on resume is the same row, never a second one.
 */
export function stableId(runId: string, key: string): string {
  const hex = createHash("sha256").update(`${runId}\u0000${key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
