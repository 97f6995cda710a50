import type { SqlStatement } from "../db";
import type { OnceKey } from "./run-service";

/** How long an HTTP API caller's Idempotency-Key answers the same run. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * An HTTP API caller's Idempotency-Key, per scope (`token:<id>`,
 * `user:<id>`): the first start with it claims it for its run; a retry
 * within 24 hours answers that run. An expired key is taken over.
 */
export function idempotencyKey(scope: string, key: string, lifetimeMs: number = idempotencyKeyLifetimeMs): OnceKey {
  return guardedClaim({
    claim: (runId, now) => [
      [`DELETE FROM "RunStartKey" WHERE "scope" = ? AND "key" = ? AND "createdAt" < ?`, [scope, key, new Date(now.getTime() - lifetimeMs)]],
      [`INSERT INTO "RunStartKey" ("scope", "key", "runId", "createdAt") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, [scope, key, runId, now]],
    ],
    check: (runId) => [`SELECT 1 AS "held" FROM "RunStartKey" WHERE "scope" = ? AND "key" = ? AND "runId" = ?`, [scope, key, runId]],
    holder: [`SELECT "runId" FROM "RunStartKey" WHERE "scope" = ? AND "key" = ?`, [scope, key]],
  });
}

/**
 * A webhook delivery that started a run: one run per (trigger, delivery
 * id), however often the sender retries or an attacker replays it. The
 * delivery's row is written with the run.
 */
export function acceptedDelivery(delivery: { id: string; triggerId: string; workflowId: string; deliveryId: string; status: number }): OnceKey {
  return guardedClaim({
    claim: (runId, now) => [
      [
        `INSERT INTO "TriggerDelivery" ("id", "triggerId", "workflowId", "deliveryId", "acceptedDeliveryId", "status", "runId", "receivedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [delivery.id, delivery.triggerId, delivery.workflowId, delivery.deliveryId, delivery.deliveryId, delivery.status, runId, now],
      ],
    ],
    check: (runId) => [`SELECT 1 AS "held" FROM "TriggerDelivery" WHERE "triggerId" = ? AND "acceptedDeliveryId" = ? AND "runId" = ?`, [delivery.triggerId, delivery.deliveryId, runId]],
    holder: [`SELECT "runId" FROM "TriggerDelivery" WHERE "triggerId" = ? AND "acceptedDeliveryId" = ?`, [delivery.triggerId, delivery.deliveryId]],
  });
}

/** A schedule's tick: one run per (trigger, tick time) across every worker; the tick is recorded as the trigger's last. */
export function scheduleTick(triggerId: string, tickAt: Date): OnceKey {
  return guardedClaim({
    claim: (runId, now) => [
      [`INSERT INTO "ScheduleTick" ("triggerId", "tickAt", "runId", "claimedAt") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, [triggerId, tickAt, runId, now]],
      [`UPDATE "WorkflowTrigger" SET "lastTickAt" = ? WHERE "id" = ? AND ("lastTickAt" IS NULL OR "lastTickAt" < ?)`, [tickAt, triggerId, tickAt]],
    ],
    check: (runId) => [`SELECT 1 AS "held" FROM "ScheduleTick" WHERE "triggerId" = ? AND "tickAt" = ? AND "runId" = ?`, [triggerId, tickAt, runId]],
    holder: [`SELECT "runId" FROM "ScheduleTick" WHERE "triggerId" = ? AND "tickAt" = ?`, [triggerId, tickAt]],
  });
}

/** A claim written with ON CONFLICT DO NOTHING, then checked: when another run holds the key, the whole start is rolled back. */
function guardedClaim(parts: {
  claim: (runId: string, now: Date) => SqlStatement[];
  check: (runId: string) => readonly [string, readonly unknown[]];
  holder: readonly [string, readonly unknown[]];
}): OnceKey {
  return {
    claim: (runId, now) => [...parts.claim(runId, now), [...parts.check(runId), { reason: "another run holds this key" }] as SqlStatement],
    holder: parts.holder,
  };
}
