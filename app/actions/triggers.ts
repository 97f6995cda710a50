"use server";

import { revalidatePath } from "next/cache";
import { requireRole } from "@/lib/auth";
import { DatabaseError, TriggerStore } from "@/lib/db";
import { parseWorkflow, startTrigger } from "@/lib/graph";
import { runService } from "@/lib/runs";
import { signDelivery, type WebhookPreset } from "@/lib/triggers";
import type { IssuedWebhookView } from "@/components/workflows/action-types";

/** The body of the example delivery a curl line sends. */
const exampleBody = JSON.stringify({ hello: "world" });

/**
 * Gives the workflow's webhook Start a new URL and signing secret (the old
 * ones stop working at once) and answers them, shown once, with a curl line
 * that sends a signed example delivery. Editors and above. The saved
 * document's Start must be on webhook.
 */
export async function issueWebhookAction(workflowId: string): Promise<IssuedWebhookView> {
  await requireRole("editor");
  if (typeof workflowId !== "string" || workflowId === "") return { ok: false, error: "Which workflow? No id was given." };
  try {
    const store = new TriggerStore(runService().db);
    const issued = await store.issueWebhook(workflowId);
    if ("refused" in issued) return { ok: false, error: issued.refused };
    const [row] = await runService().db.query<{ document: string }>(`SELECT "document" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
    const parsed = parseWorkflow(JSON.parse(row.document));
    const start = parsed.ok ? parsed.workflow.nodes.find((node) => node.type === "start" && startTrigger(node.config) === "webhook") : undefined;
    const preset = (start?.config.signature ?? "standard-webhooks") as WebhookPreset;
    const path = `/api/hooks/${issued.hookId}`;
    revalidatePath(`/workflows/${workflowId}/triggers`);
    return { ok: true, path, secret: issued.secret, preset, exampleHeaders: exampleHeaders(preset, issued.secret), exampleBody };
  } catch (error) {
    console.error("The webhook could not be issued:", error);
    return { ok: false, error: error instanceof DatabaseError ? error.message : "The webhook could not be issued because of an error on our side; the server log has the details." };
  }
}

/** Pauses or resumes every trigger of the workflow (one switch). Editors and above. */
export async function setTriggersPausedAction(workflowId: string, paused: boolean): Promise<{ ok: true } | { ok: false; error: string }> {
  await requireRole("editor");
  if (typeof workflowId !== "string" || typeof paused !== "boolean") return { ok: false, error: "Which workflow, and pause or resume?" };
  const changed = await new TriggerStore(runService().db).setPaused(workflowId, paused);
  if (!changed) return { ok: false, error: `There is no workflow "${workflowId}".` };
  revalidatePath(`/workflows/${workflowId}/triggers`);
  return { ok: true };
}

/** The headers of a signed example delivery of `exampleBody`, as the preset's sender would send them (timestamps now). */
function exampleHeaders(preset: WebhookPreset, secret: string): Record<string, string> {
  const signed = signDelivery({ preset, secret, body: exampleBody, deliveryId: `example-${Date.now()}`, now: new Date() });
  return { "content-type": "application/json", ...signed };
}
