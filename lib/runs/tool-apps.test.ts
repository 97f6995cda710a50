import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PrismaGrantStore } from "../db/grants";
import { PrismaServerRegistry } from "../db/servers";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import { callToolFromFrame, toolAppOf } from "./tool-apps";

// The MCP Apps test double (testing/mcp/app-server.fixture.mjs), started over stdio as the browser tests start it.
process.env.SWITCHBOARD_STDIO_CATALOGUE = path.join(process.cwd(), "e2e/fixtures/e2e.stdio.json");

const database = temporaryAppDatabase();
const runId = "run-apps";
const nodeRunId = "node-run-agent";
const shownRunId = "run-apps-shown";
const origin = { runId, nodeRunId, server: "app-fixture", by: "owner@example.test" };

const document = {
  version: 1,
  name: "Apps",
  nodes: [
    { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: {} },
    { id: "apps", type: "mcp-server", position: { x: 0, y: 200 }, config: { serverId: "app-fixture", toolNames: ["peek", "report", "model-only"] } },
  ],
  edges: [{ id: "apps-to-agent", kind: "service", source: "apps", sourceHandle: "tools", target: "agent", targetHandle: "mcpService" }],
};

beforeAll(async () => {
  const db = database.client;
  await new PrismaServerRegistry(db).save({ id: "app-fixture", name: "App fixture", transport: "stdio", catalogue: "app-fixture", timeoutMs: 30_000 });
  await db.workflow.create({ data: { id: "wf-apps", name: "Apps", document: JSON.stringify(document) } });
  await new PrismaGrantStore(db).grant("wf-apps", "server", "app-fixture", "owner@example.test");
  await db.run.create({ data: { id: runId, workflowId: "wf-apps", document: JSON.stringify(document), input: "{}", status: "completed", startedAt: new Date() } });
  await db.nodeRun.create({ data: { id: nodeRunId, runId, nodeId: "agent", nodeType: "offline-agent", status: "completed", startedAt: new Date() } });
  // The run whose calls the UI tests show: one call of each tool it reads the UI of.
  await db.run.create({ data: { id: shownRunId, workflowId: "wf-apps", document: JSON.stringify(document), input: "{}", status: "completed", startedAt: new Date() } });
  for (const [index, tool] of ["peek", "show-json", "show-huge", "report"].entries()) {
    await db.toolCall.create({ data: { id: `shown-${index}`, runId: shownRunId, tool, server: "app-fixture", caller: "agent", arguments: "{}", startedAt: new Date(), durationMs: 1, sequence: index + 1 } });
  }
}, 60_000);

async function rowsOf() {
  return database.client.toolCall.findMany({ where: { runId }, orderBy: { sequence: "asc" } });
}

describe("toolAppOf", () => {
  it("reads a tool's UI through the server, as the host, and checks it", async () => {
    const app = await toolAppOf(database.client, { runId: shownRunId, server: "app-fixture", tool: "peek" });
    expect(app).toMatchObject({ kind: "app", uri: "ui://fixture/peek.html" });
    expect(app?.kind === "app" && app.policy).toContain("default-src 'none'");
  }, 30_000);

  it("falls back to text with the reason for a resource that is not HTML, or too large; null for a tool with no UI", async () => {
    expect(await toolAppOf(database.client, { runId: shownRunId, server: "app-fixture", tool: "show-json" })).toMatchObject({ kind: "text", reason: expect.stringContaining('of type "application/json"') });
    expect(await toolAppOf(database.client, { runId: shownRunId, server: "app-fixture", tool: "show-huge" })).toMatchObject({ kind: "text", reason: expect.stringMatching(/is 3\.0 MiB, over the limit of 2\.0 MiB/) });
    expect(await toolAppOf(database.client, { runId: shownRunId, server: "app-fixture", tool: "report" })).toBeNull();
  }, 60_000);

  it("reads no UI of a tool the run never called nor waits to call: the server is not asked", async () => {
    expect(await toolAppOf(database.client, { runId, server: "app-fixture", tool: "peek" })).toBeNull();
    await database.client.run.update({ where: { id: runId }, data: { attention: JSON.stringify({ key: "agent#1/t1/c0", tool: "peek", server: "app-fixture" }) } });
    try {
      expect(await toolAppOf(database.client, { runId, server: "app-fixture", tool: "peek" })).toMatchObject({ kind: "app" });
    } finally {
      await database.client.run.update({ where: { id: runId }, data: { attention: null } });
    }
  }, 30_000);
});

describe("callToolFromFrame", () => {
  it("calls a tool given to the agent and writes its trace row under the agent's node run", async () => {
    const outcome = await callToolFromFrame(database.client, { ...origin, tool: "report", arguments: { cookie: "blocked: SecurityError" } });
    expect(outcome).toMatchObject({ status: "called", result: { structuredContent: { cookie: "blocked: SecurityError" } } });
    const row = (await rowsOf()).find((candidate) => outcome.status === "called" && candidate.id === outcome.rowId);
    expect(row).toMatchObject({ tool: "report", server: "app-fixture", caller: "app:agent", nodeRunId, isError: false, tainted: true });
    expect(JSON.parse(row!.arguments)).toEqual({ cookie: "blocked: SecurityError" });
    expect(row!.sequence).toBeGreaterThan(0);
  }, 30_000);

  it("refuses a tool the agent was not given, and the refusal is a trace row", async () => {
    const outcome = await callToolFromFrame(database.client, { ...origin, tool: "secret", arguments: {} });
    expect(outcome).toMatchObject({ status: "refused", reason: "Refused a call from the app: the tool 'secret' of server 'app-fixture' is not given to agent 'agent'" });
    const row = (await rowsOf()).find((candidate) => outcome.status === "refused" && candidate.id === outcome.rowId);
    expect(row).toMatchObject({ tool: "secret", caller: "app:agent", isError: true, error: "Refused a call from the app: the tool 'secret' of server 'app-fixture' is not given to agent 'agent'" });
  });

  it("refuses a tool visible to the model only, another server's tool, and a node run of another run", async () => {
    expect(await callToolFromFrame(database.client, { ...origin, tool: "model-only", arguments: {} })).toMatchObject({ status: "refused", reason: expect.stringContaining("not visible to apps") });
    expect(await callToolFromFrame(database.client, { ...origin, server: "everything", tool: "echo", arguments: {} })).toMatchObject({ status: "refused", reason: expect.stringContaining("of server 'everything' is not given to agent 'agent'") });
    expect(await callToolFromFrame(database.client, { ...origin, runId: "another-run", tool: "report", arguments: {} })).toEqual({ status: "refused", reason: "run 'another-run' has no node run 'node-run-agent'", rowId: null });
  }, 30_000);

  it("refuses every call once the workflow's grant of the server is revoked", async () => {
    await new PrismaGrantStore(database.client).revoke("wf-apps", "server", "app-fixture");
    const outcome = await callToolFromFrame(database.client, { ...origin, tool: "report", arguments: {} });
    expect(outcome).toMatchObject({ status: "refused", reason: "Refused a call from the app: MCP server 'app-fixture' is not granted to this workflow" });
    await new PrismaGrantStore(database.client).grant("wf-apps", "server", "app-fixture", "owner@example.test");
  });

  it("calls from a frame on a finished run (completed, failed, cancelled): a row is added, the run's status and journal stay", async () => {
    for (const status of ["completed", "failed", "cancelled"]) {
      await database.client.run.update({ where: { id: runId }, data: { status, endedAt: new Date() } });
      const steps = await database.client.runStep.count({ where: { runId } });
      const outcome = await callToolFromFrame(database.client, { ...origin, tool: "report", arguments: { cookie: status } });
      expect(outcome).toMatchObject({ status: "called", result: { structuredContent: { cookie: status } } });
      const run = await database.client.run.findUniqueOrThrow({ where: { id: runId } });
      expect(run.status).toBe(status);
      expect(await database.client.runStep.count({ where: { runId } })).toBe(steps);
      const last = (await rowsOf()).at(-1);
      expect(outcome.status === "called" && last?.id).toBe(outcome.status === "called" ? outcome.rowId : null);
    }
    await database.client.run.update({ where: { id: runId }, data: { status: "completed" } });
  }, 60_000);

  it("refuses a frame's call on a run with no workflow: no grant can be checked", async () => {
    await database.client.run.update({ where: { id: runId }, data: { workflowId: null } });
    try {
      const outcome = await callToolFromFrame(database.client, { ...origin, tool: "report", arguments: {} });
      expect(outcome).toMatchObject({ status: "refused", reason: expect.stringContaining("the run has no workflow") });
    } finally {
      await database.client.run.update({ where: { id: runId }, data: { workflowId: "wf-apps" } });
    }
  });

  it("refuses, with no row, a call from a turn of another person's unshared thread", async () => {
    await database.client.chatThread.create({ data: { id: "thread-apps", workflowId: "wf-apps", ownerId: "user-ada", title: "Ada's" } });
    await database.client.run.update({ where: { id: runId }, data: { threadId: "thread-apps", threadTurn: 1 } });
    try {
      const before = (await rowsOf()).length;
      expect(await callToolFromFrame(database.client, { ...origin, viewerId: "user-bob", tool: "report", arguments: {} })).toMatchObject({ status: "refused", rowId: null });
      expect((await rowsOf()).length).toBe(before);
      expect(await callToolFromFrame(database.client, { ...origin, viewerId: "user-ada", tool: "report", arguments: {} })).toMatchObject({ status: "called" });
    } finally {
      await database.client.run.update({ where: { id: runId }, data: { threadId: null, threadTurn: null } });
    }
  }, 30_000);
});
