import { randomUUID } from "node:crypto";
import { TriggerStore, type SqlDatabase } from "../db";
import { ScheduleTicker } from "../triggers";
import { acceptedDelivery, scheduleTick } from "./once-keys";
import type { RunService, StartRunResult } from "./run-service";

/**
 * Runs started by triggers, through the run service like every run: a
 * webhook delivery (once per delivery id) and a schedule's tick (once per
 * tick, whatever the number of workers).
 */

/** Starts the run of a schedule's tick, claimed once across every worker: "taken" when another claimed it first. */
export async function startScheduledRun(service: RunService, triggerId: string, tickAt: Date, log: (line: string) => void): Promise<"started" | "taken"> {
  const [row] = await service.db.query<{ workflowId: string; document: string }>(
    `SELECT t."workflowId", w."document" FROM "WorkflowTrigger" t JOIN "Workflow" w ON w."id" = t."workflowId" WHERE t."id" = ?`,
    [triggerId],
  );
  if (!row) return "taken";
  const tick = tickAt.toISOString();
  const started = await service.start({ workflowId: row.workflowId, document: JSON.parse(row.document), input: { tick }, origin: { kind: "schedule", triggerId, tick } }, { once: scheduleTick(triggerId, tickAt) });
  if (started.ok) return started.duplicate ? "taken" : "started";
  // A document that cannot run now fails the tick, once: the next tick tries again with what is saved then.
  log(`schedule of workflow ${row.workflowId}: the tick ${tick} started nothing: ${started.error}`);
  await service.db.execute(`UPDATE "WorkflowTrigger" SET "lastTickAt" = ? WHERE "id" = ? AND ("lastTickAt" IS NULL OR "lastTickAt" < ?)`, [tickAt, triggerId, tickAt]);
  return "taken";
}

/** A worker's schedule ticker: it wakes at each tick and claims what is due (see ScheduleTicker). */
export function scheduleTicker(service: RunService, db: SqlDatabase, log: (line: string) => void): ScheduleTicker {
  const triggers = new TriggerStore(db);
  return new ScheduleTicker(
    { listSchedules: () => triggers.schedules(), claimTick: (triggerId, tickAt) => startScheduledRun(service, triggerId, tickAt, log) },
    {
      onError: (error) => log(`schedules: ${(error as Error).message.split("\n")[0]}`),
      onMissedTicks: (triggerId, firstMissed, ran) => log(`schedules: trigger ${triggerId} missed its ticks from ${firstMissed.toISOString()} while nothing ran; ran the latest, ${ran.toISOString()}, once`),
    },
  );
}

/** A webhook delivery's run: the trigger, the delivery id (null: none given), the Start's outputs. */
export async function startDeliveryRun(
  service: RunService,
  delivery: { triggerId: string; workflowId: string; document: unknown; deliveryId: string | null; input: Record<string, unknown> },
): Promise<StartRunResult> {
  const origin = { kind: "webhook" as const, triggerId: delivery.triggerId, deliveryId: delivery.deliveryId };
  const request = { workflowId: delivery.workflowId, document: delivery.document, input: delivery.input, origin };
  if (delivery.deliveryId !== null) {
    return service.start(request, { once: acceptedDelivery({ id: randomUUID(), triggerId: delivery.triggerId, workflowId: delivery.workflowId, deliveryId: delivery.deliveryId, status: 202 }) });
  }
  // No delivery id: nothing tells a repeat from a new delivery; the delivery is listed with the run it started.
  const listed = (runId: string, now: Date) => [
    `INSERT INTO "TriggerDelivery" ("id", "triggerId", "workflowId", "deliveryId", "acceptedDeliveryId", "status", "runId", "receivedAt") VALUES (?, ?, ?, NULL, NULL, 202, ?, ?)`,
    [randomUUID(), delivery.triggerId, delivery.workflowId, runId, now],
  ] as const;
  const runId = randomUUID();
  return service.start({ ...request, runId }, { together: [listed(runId, new Date())] });
}

