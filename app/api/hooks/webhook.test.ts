import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { TriggerStore } from "@/lib/db/triggers";
import { runService, startWorkerRuntime, type WorkerRuntime } from "@/lib/runs";
import { signDelivery, type WebhookPreset } from "@/lib/triggers";

const database = temporaryAppDatabase();
let route: typeof import("./[hookId]/route");
let worker: WorkerRuntime;
const hooks = new Map<WebhookPreset, { hookId: string; secret: string; workflowId: string }>();

/** Start on webhook → End: the run's result is the delivery's body. */
function webhookWorkflow(signature: WebhookPreset, extra: Record<string, unknown> = {}) {
  return {
    version: 1,
    name: `On ${signature}`,
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { trigger: "webhook", signature, ...extra } },
      { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
    ],
    edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "body", target: "end", targetHandle: "result" }],
  };
}

async function deliver(preset: WebhookPreset, body: string, headers: Record<string, string>, query = ""): Promise<Response> {
  const hook = hooks.get(preset)!;
  const request = new Request(`http://127.0.0.1:3000/api/hooks/${hook.hookId}${query}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return route.POST(request, { params: Promise.resolve({ hookId: hook.hookId }) });
}

const runsOf = (preset: WebhookPreset) => database.client.run.findMany({ where: { workflowId: hooks.get(preset)!.workflowId }, orderBy: { startedAt: "asc" } });
const deliveriesOf = (preset: WebhookPreset) => new TriggerStore(runService().db).deliveries(hooks.get(preset)!.workflowId);

beforeAll(async () => {
  const store = new TriggerStore(runService().db);
  for (const preset of ["github", "standard-webhooks", "stripe"] as const) {
    const workflowId = `hook-${preset}`;
    const document = webhookWorkflow(preset, preset === "stripe" ? { respond: "when-done", maxBodyKilobytes: 1 } : {});
    await database.client.workflow.create({ data: { id: workflowId, name: document.name, document: JSON.stringify(document) } });
    const issued = await store.issueWebhook(workflowId);
    if ("refused" in issued) throw new Error(issued.refused);
    hooks.set(preset, { ...issued, workflowId });
  }
  route = await import("./[hookId]/route");
  worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null, ticksSchedules: false });
}, 60_000);

afterAll(async () => {
  await worker?.stop({ handBack: false });
});

describe("a webhook trigger", () => {
  it("starts exactly one run for a GitHub-style delivery sent three times; the body, the redacted headers and the query are the Start's outputs", async () => {
    const { secret } = hooks.get("github")!;
    const body = JSON.stringify({ action: "opened", number: 7 });
    const headers = signDelivery({ preset: "github", secret, body, now: new Date(), deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958" });
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt++) answers.push(await deliver("github", body, { ...headers, authorization: "Bearer keep-me-out" }, "?source=test"));
    expect(answers.map((answer) => answer.status)).toEqual([202, 200, 200]);
    const [first, ...repeats] = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{ runId: string; duplicate?: boolean }>;
    for (const repeat of repeats) expect(repeat).toEqual({ runId: first.runId, duplicate: true });
    const runs = await runsOf("github");
    expect(runs).toHaveLength(1);
    const input = JSON.parse(runs[0].input) as { body: unknown; headers: Record<string, string>; query: unknown; deliveryId: string };
    expect(input).toMatchObject({ body: { action: "opened", number: 7 }, query: { source: "test" }, deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958" });
    expect(input.headers.authorization).toBe("[redacted]");
    expect(input.headers["x-hub-signature-256"]).toBe("[redacted]");
    expect(JSON.parse(runs[0].origin!)).toEqual({ kind: "webhook", triggerId: expect.any(String), deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958" });
    const state = await runService().wait(first.runId, { timeoutMs: 20_000 });
    expect(state).toMatchObject({ status: "completed", outputs: { result: { action: "opened", number: 7 } } });
    const listed = await deliveriesOf("github");
    expect(listed.map((delivery) => delivery.status).sort()).toEqual([200, 200, 202]);
  });

  it("starts exactly one run for a Standard Webhooks delivery, also when it is replayed", async () => {
    const { secret } = hooks.get("standard-webhooks")!;
    const body = JSON.stringify({ type: "invoice.paid" });
    const headers = signDelivery({ preset: "standard-webhooks", secret, body, now: new Date(), deliveryId: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W" });
    expect((await deliver("standard-webhooks", body, headers)).status).toBe(202);
    expect((await deliver("standard-webhooks", body, headers)).status).toBe(200);
    expect(await runsOf("standard-webhooks")).toHaveLength(1);
  });

  it("refuses a wrong signature, a stale timestamp and an oversized body, each with its status, starting nothing, and lists each with its reason", async () => {
    const { secret } = hooks.get("standard-webhooks")!;
    const before = (await runsOf("standard-webhooks")).length;
    const body = JSON.stringify({ type: "forged" });
    const forged = signDelivery({ preset: "standard-webhooks", secret: "whsec_" + Buffer.from("not the secret at all!!").toString("base64"), body, now: new Date(), deliveryId: "msg_forged" });
    expect((await deliver("standard-webhooks", body, forged)).status).toBe(401);
    const stale = signDelivery({ preset: "standard-webhooks", secret, body, now: new Date(Date.now() - 10 * 60_000), deliveryId: "msg_stale" });
    const staleAnswer = await deliver("standard-webhooks", body, stale);
    expect(staleAnswer.status).toBe(401);
    expect(((await staleAnswer.json()) as { error: string }).error).toMatch(/timestamp/i);
    expect(await runsOf("standard-webhooks")).toHaveLength(before);

    const stripeSecret = hooks.get("stripe")!.secret;
    const large = JSON.stringify({ id: "evt_large", padding: "x".repeat(2_000) });
    expect((await deliver("stripe", large, signDelivery({ preset: "stripe", secret: stripeSecret, body: large, now: new Date() }))).status).toBe(413);
    expect(await runsOf("stripe")).toHaveLength(0);

    const listed = await deliveriesOf("standard-webhooks");
    expect(listed.filter((delivery) => delivery.status === 401).map((delivery) => delivery.reason)).toEqual([expect.stringMatching(/timestamp/i), expect.stringMatching(/signature/i)]);
    expect((await deliveriesOf("stripe"))[0]).toMatchObject({ status: 413, reason: expect.stringMatching(/1024 bytes|1 KB|limit/i), runId: null });
  });

  it("answers the End's outputs when it responds when done (a Stripe delivery: its event id is the delivery id)", async () => {
    const { secret } = hooks.get("stripe")!;
    const body = JSON.stringify({ id: "evt_1", type: "charge.succeeded" });
    const answer = await deliver("stripe", body, signDelivery({ preset: "stripe", secret, body, now: new Date() }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: "completed", outputs: { result: { id: "evt_1", type: "charge.succeeded" } } });
    const again = await deliver("stripe", body, signDelivery({ preset: "stripe", secret, body, now: new Date() }));
    expect(await again.json()).toMatchObject({ duplicate: true });
  });

  it("starts nothing while the workflow's triggers are paused, and says so; an unknown or rotated URL is 404", async () => {
    const store = new TriggerStore(runService().db);
    const { workflowId, secret, hookId } = hooks.get("github")!;
    await store.setPaused(workflowId, true);
    const body = JSON.stringify({ paused: true });
    const paused = await deliver("github", body, signDelivery({ preset: "github", secret, body, now: new Date() }));
    expect(paused.status).toBe(409);
    await store.setPaused(workflowId, false);
    const rotated = await store.issueWebhook(workflowId);
    expect("hookId" in rotated && rotated.hookId).not.toBe(hookId);
    const old = await route.POST(new Request(`http://127.0.0.1:3000/api/hooks/${hookId}`, { method: "POST", body }), { params: Promise.resolve({ hookId }) });
    expect(old.status).toBe(404);
    expect(await runsOf("github")).toHaveLength(1);
  });
});
