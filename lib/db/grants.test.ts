import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SecretBox } from "../security/secrets";
import { PrismaCredentialStore, storedCredentialOrigins } from "./credentials";
import { migrateAllowedAgents, migrationGranter } from "./grant-migration";
import { PrismaGrantStore } from "./grants";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let grants: PrismaGrantStore;

beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => database?.dispose());
beforeEach(async () => {
  await database.client.workflow.deleteMany();
  await database.client.mcpServer.deleteMany();
  await database.client.nodeCredential.deleteMany();
  grants = new PrismaGrantStore(database.client);
});

function workflowDocument(nodes: unknown[], edges: unknown[] = []) {
  return JSON.stringify({ version: 1, name: "w", nodes, edges });
}

async function workflow(id: string, document = workflowDocument([])) {
  await database.client.workflow.create({ data: { id, name: id, document } });
}

async function server(id: string, allowedAgents: string | null) {
  await database.client.mcpServer.create({ data: { id, name: id, transport: "http", url: "https://93.184.215.14/mcp", timeoutMs: 30000, maxRetries: 2, allowedAgents } });
}

const agent = (id: string, tools: unknown[] = []) => ({ id, type: "openai-agent", position: { x: 0, y: 0 }, config: {}, tools });
const serverNode = (id: string, serverId: string) => ({ id, type: "mcp-server", position: { x: 0, y: 0 }, config: { serverId } });

describe("PrismaGrantStore", () => {
  it("grants, lists, approves an origin for a credential, and revokes; a deleted workflow takes its grants with it", async () => {
    await workflow("w1");
    await grants.grant("w1", "server", "everything", "owner@example.com");
    await grants.grant("w1", "server", "everything", "someone-else@example.com");
    await grants.approveOrigin("w1", "openai-agent", "openai", "https://LLM.example.com:443/v1", "owner@example.com");
    expect(await grants.list("w1")).toEqual([
      expect.objectContaining({ kind: "server", resource: "everything", grantedBy: "owner@example.com" }),
      expect.objectContaining({ kind: "credential", resource: "openai-agent/openai", origins: ["https://llm.example.com"] }),
    ]);
    const forRun = await grants.forRun("w1");
    expect([...forRun.servers]).toEqual(["everything"]);
    expect(forRun.credentials.get("openai-agent/openai")).toEqual(["https://llm.example.com"]);
    await expect(grants.approveOrigin("w1", "openai-agent", "openai", "not a url", "x")).rejects.toThrow(RangeError);
    expect(await grants.revoke("w1", "server", "everything")).toBe(true);
    expect(await grants.revoke("w1", "server", "everything")).toBe(false);
    await database.client.workflow.delete({ where: { id: "w1" } });
    expect(await database.client.workflowGrant.count()).toBe(0);
  });
});

describe("credential origins added when storing", () => {
  it("keeps the origins a person added, refuses a URL with a path, and adds SWITCHBOARD_CREDENTIAL_<NAME>_ORIGINS", async () => {
    const store = new PrismaCredentialStore(database.client, { box: () => new SecretBox(Buffer.alloc(32, 7)) });
    await expect(store.set("openai-agent", "openai", { apiKey: "sk-1" }, ["https://llm.example.com/v1"])).rejects.toThrow(/is not an origin/);
    const stored = await store.set("openai-agent", "openai", { apiKey: "sk-1" }, ["https://llm.example.com"]);
    expect(stored.origins).toEqual(["https://llm.example.com"]);
    // Storing a new value without origins keeps them.
    await store.set("openai-agent", "openai", { apiKey: "sk-2" });
    const origins = storedCredentialOrigins(store, { SWITCHBOARD_CREDENTIAL_OPENAI_ORIGINS: "http://127.0.0.1:11434, nonsense" });
    expect(await origins("openai-agent", "openai")).toEqual(["https://llm.example.com", "http://127.0.0.1:11434"]);
  });
});

describe("migrateAllowedAgents", () => {
  it("grants each server to the workflows whose agents its allowedAgents let in, once, and clears the lists", async () => {
    await workflow("uses-tools", workflowDocument([agent("researcher", [{ type: "mcp", serverId: "search" }])]));
    await workflow("wired", workflowDocument([agent("writer"), serverNode("s", "search")], [{ id: "e", kind: "service", source: "s", sourceHandle: "tools", target: "writer", targetHandle: "mcpService" }]));
    await workflow("open", workflowDocument([{ ...agent("any"), config: { tools: [{ mcp: "open" }] } }]));
    await workflow("unrelated", workflowDocument([agent("researcher")]));
    await workflow("broken", "{ not json");
    await server("search", JSON.stringify(["researcher"]));
    await server("open", "[]"); // the SQL migration's form of "every agent"
    await server("new", null); // saved after the migration: nothing to move
    expect(await migrateAllowedAgents(database.client)).toEqual({ servers: 2, grants: 2 });
    const rows = await database.client.workflowGrant.findMany({ orderBy: { workflowId: "asc" } });
    expect(rows.map((row) => [row.workflowId, row.kind, row.resource, row.grantedBy])).toEqual([
      ["open", "server", "open", migrationGranter],
      ["uses-tools", "server", "search", migrationGranter],
    ]);
    expect(await database.client.mcpServer.count({ where: { allowedAgents: { not: null } } })).toBe(0);
    expect(await migrateAllowedAgents(database.client)).toEqual({ servers: 0, grants: 0 });
  });
});
