import { createHash, randomBytes, randomUUID } from "node:crypto";
import { parseWorkflow, type Schedule, startSchedule, startTrigger, type Workflow } from "../graph";
import { stableId } from "../run-model";
import { secretBox, type SecretBox } from "../security";
import { newWebhookSecret } from "../triggers/webhook-secret";
import { isoFromSql, type SqlDatabase } from "./sql/sql-database";

/**
 * A workflow's triggers as the database keeps them. The document is the
 * source of truth for what a trigger does (its Start's settings); a
 * WorkflowTrigger row keeps what must not be in a document: a webhook's URL
 * id (hashed) and signing secret (sealed), and a schedule's last tick.
 */

/** A webhook's URL id and secret, shown once when issued. */
export interface IssuedWebhook {
  hookId: string;
  secret: string;
}

/** A webhook found by its URL id: the trigger, its workflow's current document, whether triggers are paused, and its secret. */
export interface FoundWebhook {
  triggerId: string;
  workflowId: string;
  nodeId: string;
  document: unknown;
  paused: boolean;
  secret: string;
}

/** One delivery as the Triggers page lists it. */
export interface DeliveryRecord {
  id: string;
  deliveryId: string | null;
  status: number;
  reason: string | null;
  runId: string | null;
  receivedAt: string;
}

/** What a workflow's Triggers page shows of one trigger. */
export interface TriggerRecord {
  triggerId: string;
  nodeId: string;
  kind: "webhook" | "schedule";
  /** The URL id's last characters (the id itself is shown once). */
  hookIdHint: string | null;
  lastTickAt: string | null;
}

const secretContext = (triggerId: string) => `webhook-secret:${triggerId}`;
const hookHash = (hookId: string) => createHash("sha256").update(hookId).digest("hex");

/** The Start node of a document with its trigger, or null. */
function startOf(document: Workflow): { nodeId: string; config: Record<string, unknown> } | null {
  const start = document.nodes.find((node) => node.type === "start");
  return start ? { nodeId: start.id, config: start.config } : null;
}

export class TriggerStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly box: () => SecretBox = secretBox,
  ) {}

  /**
   * Gives the workflow's webhook Start a new URL id and signing secret,
   * replacing any earlier ones (the old URL stops working at once). Null
   * when the saved document's Start is not on webhook.
   */
  async issueWebhook(workflowId: string, now: Date = new Date()): Promise<IssuedWebhook | { refused: string }> {
    const [row] = await this.db.query<{ document: string }>(`SELECT "document" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
    if (!row) return { refused: `There is no workflow "${workflowId}".` };
    const parsed = parseWorkflow(JSON.parse(row.document));
    const start = parsed.ok ? startOf(parsed.workflow) : null;
    if (!start || startTrigger(start.config) !== "webhook") return { refused: "The saved workflow's Start is not on webhook: choose \"On webhook\" for its Start and let it save first." };
    const triggerId = stableId(workflowId, start.nodeId);
    const hookId = randomBytes(24).toString("base64url");
    const secret = newWebhookSecret();
    const sealed = this.box().seal(secret, secretContext(triggerId));
    await this.db.transaction([
      [
        `INSERT INTO "WorkflowTrigger" ("id", "workflowId", "nodeId", "kind", "config", "hookIdHash", "hookIdHint", "secret", "createdAt") VALUES (?, ?, ?, 'webhook', '{}', ?, ?, ?, ?)
         ON CONFLICT ("workflowId", "nodeId") DO UPDATE SET "kind" = 'webhook', "hookIdHash" = excluded."hookIdHash", "hookIdHint" = excluded."hookIdHint", "secret" = excluded."secret"`,
        [triggerId, workflowId, start.nodeId, hookHash(hookId), hookId.slice(-4), sealed, now],
      ],
    ]);
    return { hookId, secret };
  }

  /** The webhook a URL id names, or null (unknown, or rotated away). */
  async findWebhook(hookId: string): Promise<FoundWebhook | null> {
    if (hookId.length > 100) return null;
    const [row] = await this.db.query<{ id: string; workflowId: string; nodeId: string; secret: string | null; document: string; triggersPaused: unknown }>(
      `SELECT t."id", t."workflowId", t."nodeId", t."secret", w."document", w."triggersPaused" FROM "WorkflowTrigger" t JOIN "Workflow" w ON w."id" = t."workflowId" WHERE t."hookIdHash" = ?`,
      [hookHash(hookId)],
    );
    if (!row || !row.secret) return null;
    return { triggerId: row.id, workflowId: row.workflowId, nodeId: row.nodeId, document: JSON.parse(row.document), paused: Boolean(row.triggersPaused), secret: this.box().open(row.secret, secretContext(row.id)) };
  }

  /** Lists a delivery that started nothing (refused, or a repeat of one that did), with its reason. */
  async recordDelivery(delivery: { triggerId: string; workflowId: string; deliveryId: string | null; status: number; reason: string; runId?: string | null }, now: Date = new Date()): Promise<void> {
    await this.db.execute(
      `INSERT INTO "TriggerDelivery" ("id", "triggerId", "workflowId", "deliveryId", "acceptedDeliveryId", "status", "reason", "runId", "receivedAt") VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
      [randomUUID(), delivery.triggerId, delivery.workflowId, delivery.deliveryId, delivery.status, delivery.reason, delivery.runId ?? null, now],
    );
  }

  /** A workflow's deliveries, newest first. */
  async deliveries(workflowId: string, limit = 100): Promise<DeliveryRecord[]> {
    const rows = await this.db.query<{ id: string; deliveryId: string | null; status: unknown; reason: string | null; runId: string | null; receivedAt: unknown }>(
      `SELECT "id", "deliveryId", "status", "reason", "runId", "receivedAt" FROM "TriggerDelivery" WHERE "workflowId" = ? ORDER BY "receivedAt" DESC, "id" LIMIT ?`,
      [workflowId, limit],
    );
    return rows.map((row) => ({ id: row.id, deliveryId: row.deliveryId, status: Number(row.status), reason: row.reason, runId: row.runId, receivedAt: isoFromSql(row.receivedAt) }));
  }

  /** A workflow's trigger rows. */
  async triggers(workflowId: string): Promise<TriggerRecord[]> {
    const rows = await this.db.query<{ id: string; nodeId: string; kind: string; hookIdHint: string | null; hookIdHash: string | null; lastTickAt: unknown }>(
      `SELECT "id", "nodeId", "kind", "hookIdHint", "hookIdHash", "lastTickAt" FROM "WorkflowTrigger" WHERE "workflowId" = ? ORDER BY "nodeId"`,
      [workflowId],
    );
    return rows.map((row) => ({ triggerId: row.id, nodeId: row.nodeId, kind: row.kind === "schedule" ? "schedule" : "webhook", hookIdHint: row.hookIdHash ? row.hookIdHint : null, lastTickAt: row.lastTickAt ? isoFromSql(row.lastTickAt) : null }));
  }

  /** Whether the workflow's webhook and schedule triggers are paused. */
  async paused(workflowId: string): Promise<boolean> {
    const [row] = await this.db.query<{ triggersPaused: unknown }>(`SELECT "triggersPaused" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
    return Boolean(row?.triggersPaused);
  }

  /**
   * Pauses or resumes every trigger of a workflow (one switch). On resume,
   * a schedule holds from now: the ticks it missed while paused are not
   * "missed while down", so none of them runs.
   */
  async setPaused(workflowId: string, paused: boolean, now: Date = new Date()): Promise<boolean> {
    const statements: Array<readonly [string, readonly unknown[]]> = [[`UPDATE "Workflow" SET "triggersPaused" = ? WHERE "id" = ?`, [paused, workflowId]]];
    if (!paused) statements.push([`UPDATE "WorkflowTrigger" SET "createdAt" = ? WHERE "workflowId" = ? AND "kind" = 'schedule'`, [now, workflowId]]);
    const [exists] = await this.db.query(`SELECT 1 AS "found" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
    if (!exists) return false;
    await this.db.transaction(statements);
    return true;
  }

  /**
   * Every schedule of every workflow, from the saved documents (a Start on
   * schedule), with its row's last tick. A schedule seen for the first time,
   * or changed, gets its row (and holds from now).
   */
  async schedules(now: Date = new Date()): Promise<Array<{ triggerId: string; workflowId: string; schedule: Schedule; lastTickAt: Date | null; createdAt: Date; paused: boolean }>> {
    const workflows = await this.db.query<{ id: string; document: string; triggersPaused: unknown }>(`SELECT "id", "document", "triggersPaused" FROM "Workflow" WHERE "document" LIKE ?`, ['%"trigger":"schedule"%']);
    const found = [];
    for (const workflow of workflows) {
      const parsed = parseWorkflow(JSON.parse(workflow.document));
      const start = parsed.ok ? startOf(parsed.workflow) : null;
      const schedule = start ? startSchedule(start.config) : null;
      if (!start || !schedule) continue;
      const triggerId = stableId(workflow.id, start.nodeId);
      const config = JSON.stringify(schedule);
      await this.db.execute(
        `INSERT INTO "WorkflowTrigger" ("id", "workflowId", "nodeId", "kind", "config", "createdAt") VALUES (?, ?, ?, 'schedule', ?, ?)
         ON CONFLICT ("workflowId", "nodeId") DO UPDATE SET "kind" = 'schedule', "config" = excluded."config", "createdAt" = excluded."createdAt", "hookIdHash" = NULL, "secret" = NULL
         WHERE "WorkflowTrigger"."config" <> excluded."config" OR "WorkflowTrigger"."kind" <> 'schedule'`,
        [triggerId, workflow.id, start.nodeId, config, now],
      );
      const [row] = await this.db.query<{ lastTickAt: unknown; createdAt: unknown }>(`SELECT "lastTickAt", "createdAt" FROM "WorkflowTrigger" WHERE "id" = ?`, [triggerId]);
      found.push({
        triggerId,
        workflowId: workflow.id,
        schedule,
        lastTickAt: row?.lastTickAt ? new Date(isoFromSql(row.lastTickAt)) : null,
        createdAt: row?.createdAt ? new Date(isoFromSql(row.createdAt)) : now,
        paused: Boolean(workflow.triggersPaused),
      });
    }
    return found;
  }
}

