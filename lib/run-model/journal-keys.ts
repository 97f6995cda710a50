import { hash } from "node:crypto";

/**
 * The keys of a run's journal, built and read only through these functions,
 * so the engine that writes a step and the database that answers or reads
 * it can never disagree on a spelling. A key is stable across a resume:
 *
 * - `<node run key>`: a node's n-th activation (`agent#1`), under the key of
 *   the task call that started it, if any (`agent#1/t1/c0/summarize#1`);
 * - `…/t<turn>`: a model turn; `…/t<turn>/c<index>`: a tool call of it;
 * - `…/step`: a step node's result;
 * - beside a call that is not safe to repeat: `…/start` (`…/start/<n>` for
 *   the n-th attempt) and a person's `…/choice` (`…/choice/<n>`);
 * - beside a call that waits for a person: `…/waiting`, then `…/decision`
 *   (approval), and `…/notified` (the outside notice went out);
 * - a tool's question: `<call key>/elicit/<n>`, its own `/waiting` beside it.
 */

/** @example nodeRunKey("agent", 2, null) // "agent#2" */
export function nodeRunKey(nodeId: string, activation: number, parentToolCallId: string | null): string {
  return `${parentToolCallId ? `${parentToolCallId}/` : ""}${nodeId}#${activation}`;
}

/** A model turn of a node run, or (with `callIndex`) one tool call of that turn. */
export function turnKey(nodeRun: string, turn: number, callIndex?: number): string {
  return `${nodeRun}/t${turn}${callIndex === undefined ? "" : `/c${callIndex}`}`;
}

/** The node of a model turn's key: `agent#1/t2` → `agent`; inside a task's sub-flow, the innermost node (`agent#1/t1/c0/summarize#1/t1` → `summarize`). */
export function nodeIdOfTurn(key: string): string {
  const nodeRun = key.replace(/\/t\d+$/, "");
  const node = nodeRun.slice(nodeRun.lastIndexOf("/") + 1);
  const hash = node.lastIndexOf("#");
  return hash === -1 ? node : node.slice(0, hash);
}

/** A step node's recorded result. */
export function stepResultKey(nodeRun: string): string {
  return `${nodeRun}/${stepSuffix}`;
}

/** Where the n-th attempt of a call not safe to repeat records its start, and a person's choice for it after a crash. */
export function attemptKeys(callKey: string, attempt: number): { start: string; choice: string } {
  return attempt <= 1 ? { start: `${callKey}/start`, choice: `${callKey}/choice` } : { start: `${callKey}/start/${attempt}`, choice: `${callKey}/choice/${attempt}` };
}

/** The choice key of a call's first attempt (runs recorded before attempts were counted). */
export function firstChoiceKey(callKey: string): string {
  return attemptKeys(callKey, 1).choice;
}

/** A call (or a tool's question) waiting for a person. */
export function waitingKey(key: string): string {
  return `${key}/${waitingSuffix}`;
}

/** A person's approval decision for a waiting call. */
export function decisionKey(callKey: string): string {
  return `${callKey}/${decisionSuffix}`;
}

/** Marks that the outside notice for a waiting call went out (never replayed). */
export function notifiedKey(callKey: string): string {
  return `${callKey}/notified`;
}

/** The n-th question a tool asked during one call. */
export function questionKey(callKey: string, n: number): string {
  return `${callKey}/elicit/${n}`;
}

/** The SQL LIKE pattern that matches every question's waiting key. */
export const questionWaitingPattern = "%/elicit/%";

/** The SQL LIKE pattern that matches every decision key. */
export const decisionPattern = "%/decision";

const waitingSuffix = "waiting";
const decisionSuffix = "decision";
const stepSuffix = "step";

/** The key a waiting key waits for (`…/waiting` → `…`); null when it is not one. */
export function keyOfWaiting(key: string): string | null {
  return stripSuffix(key, waitingSuffix);
}

/** The call a decision key decides (`…/decision` → `…`); null when it is not one. */
export function keyOfDecision(key: string): string | null {
  return stripSuffix(key, decisionSuffix);
}

/** The node run of a step result key (`…/step` → `…`); null when it is not one. */
export function nodeRunOfStepResult(key: string): string | null {
  return stripSuffix(key, stepSuffix);
}

function stripSuffix(key: string, suffix: string): string | null {
  return key.endsWith(`/${suffix}`) ? key.slice(0, -(suffix.length + 1)) : null;
}

/**
 * A UUID-shaped id derived from the run and a journal key, so a node run or
 * a trace row written again on resume is the same row, never a second one.
 */
export function stableId(runId: string, key: string): string {
  // One-shot: a run hashes every call's key, and the streaming createHash costs several times more per key.
  const hex = hash("sha256", `${runId}\u0000${key}`, "hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
