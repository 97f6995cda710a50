import { readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTypesFile, apiTypesSource } from "@/lib/api/api-types-source";
import type { paths } from "@/lib/api/openapi-types";
import { openApiDocument } from "@/lib/api/openapi";
import { secretHash } from "@/lib/security/secret-tokens";
import { PrismaAccounts } from "@/lib/db/accounts";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { startWorkerRuntime, type WorkerRuntime } from "@/lib/runs";

const database = temporaryAppDatabase();
const root = path.resolve(import.meta.dirname, "..", "..");
const tokens = { runner: "sbt_runner_7f3a9c2e5b8d1f4a6c0e", viewer: "sbt_viewer_2b5e8a1d4f7c0e3a6b9d" };
const workflowId = "echo";
/** Start → End: the run's result is its question. */
const document = {
  version: 1,
  name: "Echo",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "end", targetHandle: "result" }],
};

type Routes = {
  runs: typeof import("./workflows/[id]/runs/route");
  run: typeof import("./runs/[id]/route");
  events: typeof import("./runs/[id]/events/route");
  cancel: typeof import("./runs/[id]/cancel/route");
};
let routes: Routes;
let worker: WorkerRuntime;

/** TEST DOUBLE for the network: a request goes straight to the route handler Next would call for its path. */
async function apiFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input instanceof Request ? input : new URL(String(input), "http://127.0.0.1:3000"), init);
  const parts = new URL(request.url).pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const params = (id: string) => ({ params: Promise.resolve({ id }) });
  if (parts[1] === "workflows" && parts[3] === "runs" && request.method === "POST") return routes.runs.POST(request, params(parts[2]));
  if (parts[1] === "runs" && parts.length === 3 && request.method === "GET") return routes.run.GET(request, params(parts[2]));
  if (parts[1] === "runs" && parts[3] === "events") return routes.events.GET(request, params(parts[2]));
  if (parts[1] === "runs" && parts[3] === "cancel" && request.method === "POST") return routes.cancel.POST(request, params(parts[2]));
  return new Response(null, { status: 404 });
}

const post = (body: unknown, headers: Record<string, string> = {}, token: string | null = tokens.runner) =>
  apiFetch(`/api/workflows/${workflowId}/runs`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  const accounts = new PrismaAccounts(database.client);
  for (const role of ["runner", "viewer"] as const) {
    const user = await accounts.createUser({ email: `${role}@example.test`, role, passwordHash: "not-used" });
    await accounts.createApiToken({ userId: user!.id, name: role, tokenHash: secretHash(tokens[role]), prefix: tokens[role].slice(0, 10) });
  }
  await database.client.workflow.create({ data: { id: workflowId, name: document.name, document: JSON.stringify(document) } });
  routes = {
    runs: await import("./workflows/[id]/runs/route"),
    run: await import("./runs/[id]/route"),
    events: await import("./runs/[id]/events/route"),
    cancel: await import("./runs/[id]/cancel/route"),
  };
  worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null });
}, 60_000);

afterAll(async () => {
  await worker?.stop({ handBack: false });
});

async function settled(runId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const answer = (await (await apiFetch(`/api/runs/${runId}`, { headers: { authorization: `Bearer ${tokens.viewer}` } })).json()) as { status: string };
    if (!["queued", "running"].includes(answer.status)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the HTTP API", () => {
  it("starts a run with a runner's token and answers 202 at once; the run completes with the End's outputs, and says it came through the API", async () => {
    const response = await post({ input: { question: "hello" } });
    expect(response.status).toBe(202);
    const started = (await response.json()) as { runId: string; status: string; links: Record<string, string> };
    expect(started).toMatchObject({ status: "queued", links: { self: `/api/runs/${started.runId}`, events: `/api/runs/${started.runId}/events` } });
    expect(response.headers.get("location")).toBe(started.links.self);
    const run = await settled(started.runId);
    expect(run).toMatchObject({ runId: started.runId, status: "completed", outputs: { result: "hello" }, error: null, origin: { kind: "api", by: "runner@example.test" } });
  });

  it("starts one run for two POSTs with one Idempotency-Key, and another for another key", async () => {
    const key = { "idempotency-key": "order-1234" };
    const first = (await (await post({ input: { question: "once" } }, key)).json()) as { runId: string };
    const again = await post({ input: { question: "once" } }, key);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { runId: string }).runId).toBe(first.runId);
    const other = (await (await post({ input: { question: "once" } }, { "idempotency-key": "order-1235" })).json()) as { runId: string };
    expect(other.runId).not.toBe(first.runId);
    const runs = await database.client.run.findMany({ where: { input: JSON.stringify({ question: "once" }) } });
    expect(runs).toHaveLength(2);
  });

  it("refuses a viewer's token (403), no token (401) and a wrong one (401), starting nothing", async () => {
    const before = await database.client.run.count();
    const viewer = await post({ input: { question: "x" } }, {}, tokens.viewer);
    expect(viewer.status).toBe(403);
    expect(((await viewer.json()) as { error: string }).error).toContain("viewer");
    expect((await post({ input: { question: "x" } }, {}, null)).status).toBe(401);
    expect((await post({ input: { question: "x" } }, {}, "sbt_not_a_token_0000000000")).status).toBe(401);
    // A page of another origin riding the browser's session: refused before the session is read.
    expect((await post({ input: { question: "x" } }, { origin: "https://evil.example", cookie: "switchboard_session=whatever" }, null)).status).toBe(403);
    expect(await database.client.run.count()).toBe(before);
  });

  it("answers a bad input with 400 naming the field, and starts nothing", async () => {
    const before = await database.client.run.count();
    const missing = await post({ input: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: "input.question", error: expect.stringContaining("question") });
    const typed = await post({ input: { question: 42 } });
    expect(await typed.json()).toMatchObject({ field: "input.question" });
    const unknown = await post({ input: { question: "x", colour: "red" } });
    expect(await unknown.json()).toMatchObject({ field: "input.colour" });
    const shape = await post({ input: "hello" });
    expect(shape.status).toBe(400);
    expect(await shape.json()).toMatchObject({ field: "input" });
    expect((await apiFetch(`/api/workflows/${workflowId}/runs`, { method: "POST", headers: { authorization: `Bearer ${tokens.runner}` }, body: "{not json" })).status).toBe(400);
    expect((await apiFetch("/api/workflows/no-such-workflow/runs", { method: "POST", headers: { authorization: `Bearer ${tokens.runner}` }, body: "{}" })).status).toBe(404);
    expect(await database.client.run.count()).toBe(before);
  });

  it("streams a run's progress as Server-Sent Events, ending with the run", async () => {
    const { runId } = (await (await post({ input: { question: "streamed" } })).json()) as { runId: string };
    const response = await apiFetch(`/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${tokens.viewer}` } });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, name, data]) => ({ name, data: JSON.parse(data) as Record<string, unknown> }));
    expect(events.filter((event) => event.name === "node").map((event) => event.data.nodeId)).toEqual(expect.arrayContaining(["start", "end"]));
    expect(events.at(-1)).toMatchObject({ name: "end", data: { runId, status: "completed", outputs: { result: "streamed" } } });
  });

  it("cancels a queued run, and says so for one that has ended", async () => {
    await worker.stop({ handBack: true });
    try {
      const { runId } = (await (await post({ input: { question: "stop me" } })).json()) as { runId: string };
      const cancel = await apiFetch(`/api/runs/${runId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${tokens.runner}` } });
      expect(await cancel.json()).toEqual({ runId, cancel: "cancelled" });
      expect((await apiFetch(`/api/runs/${runId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${tokens.runner}` } })).status).toBe(409);
      expect((await apiFetch(`/api/runs/${runId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${tokens.viewer}` } })).status).toBe(403);
    } finally {
      worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null });
    }
  });
});

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const result = await new Validator().validate(openApiDocument() as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes a chat widget's calls: its token as a security scheme, its headers on the chat routes, and nowhere else", () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, { security?: unknown[]; parameters?: Array<{ name: string; in: string }> }>>; components: { securitySchemes: Record<string, { type: string; scheme?: string; description: string }> } };
    expect(document.components.securitySchemes.widgetToken).toMatchObject({ type: "http", scheme: "bearer", description: expect.stringContaining("sbw_") });
    for (const method of ["post", "get"]) {
      const operation = document.paths["/api/workflows/{workflowId}/chat"]![method]!;
      expect(operation.security).toContainEqual({ widgetToken: [] });
      expect(operation.parameters?.filter((parameter) => parameter.in === "header").map((parameter) => parameter.name)).toEqual(expect.arrayContaining(["X-Visitor-Id", "X-Embed-Parent"]));
    }
    const elsewhere = Object.entries(document.paths).filter(([route]) => route !== "/api/workflows/{workflowId}/chat").flatMap(([, operations]) => Object.values(operations));
    expect(elsewhere.some((operation) => JSON.stringify(operation.security ?? []).includes("widgetToken"))).toBe(false);
  });

  it("is what the committed client types were generated from (npm run api:types)", async () => {
    expect(readFileSync(path.join(root, apiTypesFile), "utf8")).toBe(await apiTypesSource());
  });

  it("gives a client generated from it (openapi-fetch) that starts a run and reads it", async () => {
    const client = createClient<paths>({ baseUrl: "http://127.0.0.1:3000", fetch: (request) => apiFetch(request), headers: { authorization: `Bearer ${tokens.runner}` } });
    const { data, error, response } = await client.POST("/api/workflows/{workflowId}/runs", { params: { path: { workflowId } }, body: { input: { question: "typed" } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(202);
    const run = await settled(data!.runId);
    expect(run).toMatchObject({ status: "completed", outputs: { result: "typed" } });
    const read = await client.GET("/api/runs/{runId}", { params: { path: { runId: data!.runId } } });
    expect(read.data?.status).toBe("completed");
  });
});
