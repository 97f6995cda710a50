import { decisionKey, decisionPattern, keyOfDecision, keyOfWaiting, notifiedKey, stableId } from "../run-model";
import { checkArguments } from "../manifest";
import { type ApprovalDecision, expiredWaits } from "../policy";
import type { WaitingApproval, AttentionRequest } from "../trace";
import { toJsonText } from "./json-text";
import { documentName } from "./run-rows";
import type { SqlDatabase } from "./sql/sql-database";
import { requeueWaitingRun } from "./queued-runs";

export type { WaitingApproval };

/** What a person decides; `by` is the deciding actor (authorization is checked by the caller, in app/). */
export type DecisionInput = { action: "approve"; arguments?: unknown; by: string } | { action: "deny"; reason: string; by: string };

export type DecisionResult = { ok: true; runId: string } | { ok: false; error: string; field?: "arguments" | "reason" | "callId" };

/** Every call waiting for approval across runs, oldest first. */
export async function listWaitingApprovals(db: SqlDatabase): Promise<WaitingApproval[]> {
  const rows = await db.query<{ id: string; workflowId: string | null; attention: string | null; document: string }>(`SELECT "id", "workflowId", "attention", "document" FROM "Run" WHERE "status" = 'needs-attention' AND "attention" IS NOT NULL`);
  const waiting: WaitingApproval[] = [];
  for (const row of rows) {
    const request = JSON.parse(row.attention!) as AttentionRequest;
    if (!request.approval) continue;
    waiting.push({ callId: stableId(row.id, request.key), runId: row.id, workflowId: row.workflowId, workflowName: documentName(row.document), request: request as WaitingApproval["request"], deadline: request.approval.deadline });
  }
  return waiting.sort((a, b) => a.request.approval.since.localeCompare(b.request.approval.since));
}

/**
 * Records a person's decision on a waiting call in its run's journal
 * (`<call key>/decision`) and queues the run again; the worker that takes
 * it replays up to the call and applies the decision. A call that is not
 * waiting (already decided, its run cancelled or ended) is refused with a
 * message saying so, and nothing changes. Edited arguments must pass the
 * tool's input schema; a denial needs a reason (the model receives it).
 */
export async function recordApprovalDecision(db: SqlDatabase, callId: string, input: DecisionInput, now: Date = new Date()): Promise<DecisionResult> {
  if (input.action === "deny" && !input.reason.trim()) return { ok: false, error: "Say why the call is denied: the model receives the reason.", field: "reason" };
  const waiting = (await listWaitingApprovals(db)).find((candidate) => candidate.callId === callId);
  if (!waiting) return { ok: false, error: await notWaiting(db, callId), field: "callId" };
  if (input.action === "approve" && input.arguments !== undefined) {
    const checked = checkArguments(waiting.request.approval.inputSchema, input.arguments);
    if (!checked.ok) return { ok: false, error: `The edited arguments do not fit ${waiting.request.tool}'s input schema: ${checked.message}`, field: "arguments" };
  }
  const decision: ApprovalDecision = input.action === "approve" ? { action: "approve", ...(input.arguments === undefined ? {} : { arguments: input.arguments }), by: input.by, at: now.toISOString() } : { action: "deny", reason: input.reason.trim(), by: input.by, at: now.toISOString() };
  await db.transaction([
    [`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'decision', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [waiting.runId, decisionKey(waiting.request.key), toJsonText(decision), now]],
    requeueWaitingRun(waiting.runId),
  ]);
  return { ok: true, runId: waiting.runId };
}

/** Denies every wait whose policy deadline has passed at `now` (a fake clock in tests); returns the runs queued again. */
export async function denyExpiredApprovals(db: SqlDatabase, now: Date = new Date()): Promise<string[]> {
  const queued: string[] = [];
  for (const wait of expiredWaits(await listWaitingApprovals(db), now)) {
    const result = await recordApprovalDecision(db, wait.callId, { action: "deny", reason: `no one decided within ${wait.request.approval.policy.timeoutHours} h (deadline ${wait.deadline})`, by: "timeout" }, now);
    if (result.ok) queued.push(result.runId);
  }
  return queued;
}

/** Why a call id is not waiting: decided already, its run ended or was cancelled, or no such call. */
async function notWaiting(db: SqlDatabase, callId: string): Promise<string> {
  const decided = await db.query<{ runId: string; key: string; value: string }>(`SELECT "runId", "key", "value" FROM "RunStep" WHERE "kind" = 'decision' AND "key" LIKE ?`, [decisionPattern]);
  const match = decided.find((row) => stableId(row.runId, keyOfDecision(row.key) ?? "") === callId);
  if (match) {
    const decision = JSON.parse(match.value) as ApprovalDecision;
    const [run] = await db.query<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [match.runId]);
    return `This call was already ${decision.action === "approve" ? "approved" : "denied"} by ${decision.by} at ${decision.at}; the run is ${run?.status ?? "gone"}. Nothing was changed.`;
  }
  const waited = await db.query<{ runId: string; key: string }>(`SELECT "runId", "key" FROM "RunStep" WHERE "kind" = 'waiting'`);
  const asked = waited.find((row) => stableId(row.runId, keyOfWaiting(row.key) ?? "") === callId);
  if (asked) {
    const [run] = await db.query<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [asked.runId]);
    return `This call's run is ${run?.status ?? "gone"}, so there is nothing to decide. Nothing was changed.`;
  }
  return `There is no call "${callId}" waiting for approval.`;
}

/**
 * Claims the one notice a waiting call gets (the webhook): true the first
 * time for a call key, false after, whichever worker asks. Recorded in the
 * run's journal as `<call key>/notified`, which replay never reads.
 */
export async function claimWaitingNotice(db: SqlDatabase, runId: string, callKey: string, now: Date = new Date()): Promise<boolean> {
  const changed = await db.execute(`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'notified', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [runId, notifiedKey(callKey), toJsonText({ at: now.toISOString() }), now]);
  return changed > 0;
}

