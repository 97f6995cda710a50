import { parseWorkflow, startTrigger } from "@/lib/graph";
import { publicAction } from "@/lib/auth/public-action";
import { TriggerStore } from "@/lib/db";
import { runService, startDeliveryRun } from "@/lib/runs";
import { readLimitedBody, verifyDelivery, webhookStartInput, type WebhookPreset } from "@/lib/triggers";

const json = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * POST /api/hooks/<hook id>: a webhook delivery for a workflow whose Start
 * is on webhook. The URL's id is unguessable (shown once, rotatable); the
 * delivery proves itself by its signature in the Start's preset (GitHub,
 * Stripe, Standard Webhooks, or none when chosen so). Answers 202
 * `{ runId }` at once, or with "when done" the End's outputs (200) once the
 * run has ended within the timeout. A delivery id seen before answers 200
 * with the first run's id and starts nothing. Refusals (401 signature or
 * timestamp, 413 body too large, 409 paused) start nothing; every delivery
 * is listed on the workflow's Triggers page with its reason.
 */
export async function POST(request: Request, context: { params: Promise<{ hookId: string }> }): Promise<Response> {
  publicAction("a webhook delivery proves itself by its signature over the body with the trigger's secret (or its Start was set to check none, shown as a warning); the URL's id is unguessable");
  const { hookId } = await context.params;
  const service = runService();
  const store = new TriggerStore(service.db);
  const hook = await store.findWebhook(hookId);
  if (!hook) return json(404, { error: "There is no webhook at this URL: it was never issued, or it was rotated." });
  const refuse = async (status: number, reason: string, deliveryId: string | null = null) => {
    await store.recordDelivery({ triggerId: hook.triggerId, workflowId: hook.workflowId, deliveryId, status, reason });
    return json(status, { error: reason });
  };
  const parsed = parseWorkflow(hook.document);
  const start = parsed.ok ? parsed.workflow.nodes.find((node) => node.type === "start" && node.id === hook.nodeId) : undefined;
  if (!start || startTrigger(start.config) !== "webhook") return refuse(410, "The workflow's Start is no longer on webhook; nothing was started.");
  if (hook.paused) return refuse(409, "The workflow's triggers are paused; nothing was started. Resume them on its Triggers page.");
  const maxBytes = Number(start.config.maxBodyKilobytes ?? 1024) * 1024;
  const read = await readLimitedBody(request, maxBytes);
  if (!read.ok) return refuse(read.status, read.reason);
  const preset = (start.config.signature ?? "standard-webhooks") as WebhookPreset;
  const verdict = verifyDelivery({ preset, secret: hook.secret, body: read.body, headers: request.headers, now: new Date() });
  if (!verdict.ok) return refuse(verdict.status, verdict.reason);
  const input = webhookStartInput({ body: read.body, contentType: request.headers.get("content-type"), headers: request.headers, url: request.url, deliveryId: verdict.deliveryId });
  const started = await startDeliveryRun(service, { triggerId: hook.triggerId, workflowId: hook.workflowId, document: hook.document, deliveryId: verdict.deliveryId, input: { ...input } });
  if (!started.ok) return refuse(started.code === "input" ? 400 : 409, `The delivery started nothing: ${started.error}`, verdict.deliveryId);
  if (started.duplicate) {
    await store.recordDelivery({ triggerId: hook.triggerId, workflowId: hook.workflowId, deliveryId: verdict.deliveryId, status: 200, reason: "a repeat of a delivery already received: it started nothing", runId: started.runId });
    return json(200, { runId: started.runId, duplicate: true });
  }
  if (start.config.respond !== "when-done") return json(202, { runId: started.runId });
  const timeoutMs = Number(start.config.respondTimeoutSeconds ?? 30) * 1000;
  const state = await service.wait(started.runId, { timeoutMs, signal: request.signal });
  if (state?.status === "completed") return json(200, { runId: started.runId, status: state.status, outputs: state.outputs });
  if (state && ["failed", "cancelled"].includes(state.status)) return json(200, { runId: started.runId, status: state.status, error: state.error });
  return json(202, { runId: started.runId, status: state?.status ?? "queued" });
}
