/**
 * GET /app-frame/<run id>, the route handler called as Next calls it, with
 * the MCP Apps TEST DOUBLE (lib/mcp/apps/app-fixture-server.mjs) started
 * over stdio: the app's HTML comes with its own Content-Security-Policy
 * header, which allows exactly the origins its resource declares (and none
 * when it declares none); a turn of another person's unshared thread is
 * 404, as is a tool the run never called; a UI that is not HTML is 422
 * with the reason; no session or token is 401.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PrismaAccounts } from "@/lib/db/accounts";
import { PrismaServerRegistry } from "@/lib/db/servers";
import { secretHash } from "@/lib/security/secret-tokens";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";

process.env.SWITCHBOARD_STDIO_CATALOGUE = path.join(process.cwd(), "e2e/fixtures/e2e.stdio.json");

const database = temporaryAppDatabase();
const tokens = { ada: "sbt_viewer_ada_5c1e9a7f3b2d8e4a6f", bob: "sbt_viewer_bob_9e2a4c6f8b1d3e5a7c" };
let route: typeof import("./[runId]/route");
const users: Record<string, string> = {};

const document = { version: 1, name: "Apps", nodes: [{ id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: {} }], edges: [] };

async function frame(runId: string, tool: string, token: string | null = tokens.ada): Promise<Response> {
  const url = `http://127.0.0.1:3000/app-frame/${runId}?${new URLSearchParams({ server: "app-fixture", tool })}`;
  return route.GET(new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }), { params: Promise.resolve({ runId }) });
}

/** The policy's directives by name. */
function directives(response: Response): Record<string, string> {
  const policy = response.headers.get("content-security-policy") ?? "";
  return Object.fromEntries(policy.split(";").map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(" ")]));
}

beforeAll(async () => {
  const db = database.client;
  const accounts = new PrismaAccounts(db);
  for (const name of ["ada", "bob"] as const) {
    const user = await accounts.createUser({ email: `${name}@example.test`, role: "viewer", passwordHash: "not-used" });
    users[name] = user!.id;
    await accounts.createApiToken({ userId: user!.id, name, tokenHash: secretHash(tokens[name]), prefix: tokens[name].slice(0, 10) });
  }
  await new PrismaServerRegistry(db).save({ id: "app-fixture", name: "App fixture", transport: "stdio", catalogue: "app-fixture", timeoutMs: 30_000 });
  await db.workflow.create({ data: { id: "wf-frame", name: "Apps", document: JSON.stringify(document) } });
  await db.chatThread.create({ data: { id: "thread-ada", workflowId: "wf-frame", ownerId: users.ada!, title: "Ada's" } });
  for (const runId of ["run-open", "run-ada"]) {
    await db.run.create({ data: { id: runId, workflowId: "wf-frame", document: JSON.stringify(document), input: "{}", status: "completed", startedAt: new Date(), ...(runId === "run-ada" ? { threadId: "thread-ada", threadTurn: 1 } : {}) } });
    for (const [index, tool] of ["peek", "show-remote", "show-json"].entries()) {
      await db.toolCall.create({ data: { id: `${runId}-${index}`, runId, tool, server: "app-fixture", caller: "agent", arguments: "{}", startedAt: new Date(), durationMs: 1, sequence: index + 1 } });
    }
  }
  route = await import("./[runId]/route");
}, 60_000);

describe("GET /app-frame/<run id>", () => {
  it("serves the app's HTML with its own policy: the declared origins and nothing else", async () => {
    const response = await frame("run-open", "show-remote");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("<!doctype html><p>remote</p>");
    const policy = directives(response);
    expect(policy["default-src"]).toBe("'none'");
    expect(policy["connect-src"]).toBe("https://api.example.test");
    expect(policy["script-src"]).toBe("'unsafe-inline' https://cdn.example.test");
    expect(policy["img-src"]).toBe("data: blob: https://cdn.example.test");
    expect(policy["frame-src"]).toBe("'none'");
    expect(policy["sandbox"]).toBe("allow-scripts");
    expect(policy["frame-ancestors"]).toBe("'self'");
    // The page's own policy is not added (it would allow 'self' and forbid the declared origins).
    expect(response.headers.get("content-security-policy")).not.toContain("'self' 'unsafe-inline'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  }, 30_000);

  it("allows no connection and no outside resource to an app whose resource declares none", async () => {
    const response = await frame("run-open", "peek");
    expect(response.status).toBe(200);
    const policy = directives(response);
    expect(policy["connect-src"]).toBe("'none'");
    expect(policy["script-src"]).toBe("'unsafe-inline'");
    expect(response.headers.get("content-security-policy")).not.toMatch(/https?:\/\//);
  }, 30_000);

  it("is 404 on a turn of another person's unshared thread, and serves it once the thread is shared", async () => {
    expect((await frame("run-ada", "peek", tokens.ada)).status).toBe(200);
    const refused = await frame("run-ada", "peek", tokens.bob);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain("<script>");
    await database.client.chatThread.update({ where: { id: "thread-ada" }, data: { shared: true } });
    try {
      expect((await frame("run-ada", "peek", tokens.bob)).status).toBe(200);
    } finally {
      await database.client.chatThread.update({ where: { id: "thread-ada" }, data: { shared: false } });
    }
  }, 60_000);

  it("is 404 for a tool the run never called and for a run that does not exist", async () => {
    expect((await frame("run-open", "report")).status).toBe(404);
    expect((await frame("no-such-run", "peek")).status).toBe(404);
  }, 30_000);

  it("answers a UI that is not MCP App HTML with 422 and the reason, as text that runs nothing", async () => {
    const response = await frame("run-open", "show-json");
    expect(response.status).toBe(422);
    expect(await response.text()).toContain('of type "application/json"');
    expect(directives(response)["default-src"]).toBe("'none'");
    expect(directives(response)["sandbox"]).toBe("");
  }, 30_000);

  it("needs a session or a token, and names a missing query field", async () => {
    expect((await frame("run-open", "peek", null)).status).toBe(401);
    const url = "http://127.0.0.1:3000/app-frame/run-open?server=app-fixture";
    const missing = await route.GET(new Request(url, { headers: { authorization: `Bearer ${tokens.ada}` } }), { params: Promise.resolve({ runId: "run-open" }) });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("tool: required");
  });
});
