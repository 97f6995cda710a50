import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretBox } from "../security/secrets";
import { PrismaOAuthStateStore } from "./server-oauth";
import { PrismaServerRegistry } from "./servers";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
const box = new SecretBox(Buffer.alloc(32, 7));
const policy = { stdioDisabled: false, allowedPrivateOrigins: [] };
const remote = { id: "remote", name: "Remote", transport: "http", url: "https://93.184.215.14/mcp", oauth: { grant: "authorization_code", scope: "tools" } };

beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => database?.dispose());

describe("PrismaOAuthStateStore", () => {
  it("seals tokens bound to the server's URL, lists statuses without opening them, and forgets them", async () => {
    const registry = new PrismaServerRegistry(database.client, { box: () => box, policy: () => policy });
    const saved = await registry.save(remote);
    expect(saved).toMatchObject({ oauth: { grant: "authorization_code", scope: "tools" } });
    const store = new PrismaOAuthStateStore(database.client, { box: () => box, actor: "owner@example.test" });
    await store.save("remote", { tokens: { access_token: "at-very-secret", refresh_token: "rt-very-secret", token_type: "Bearer" } as never });

    const row = await database.client.mcpServerOAuth.findUniqueOrThrow({ where: { serverId: "remote" } });
    expect(row.value).not.toContain("very-secret");
    expect((await store.load("remote")).tokens?.access_token).toBe("at-very-secret");
    expect((await store.statuses()).get("remote")).toMatchObject({ status: "connected", connectedBy: "owner@example.test" });

    await store.save("remote", { ...(await store.load("remote")), needsReconnect: "the refresh token was revoked" });
    expect((await store.statuses()).get("remote")).toMatchObject({ status: "reconnect", reason: "the refresh token was revoked" });

    // The row now points elsewhere: the tokens are not handed to the new URL.
    await database.client.mcpServer.update({ where: { id: "remote" }, data: { url: "https://93.184.215.15/mcp" } });
    expect(await store.load("remote")).toEqual({});

    await store.forget("remote");
    expect((await store.statuses()).has("remote")).toBe(false);
  });

  it("refuses an Authorization header next to OAuth, and client credentials without a secret", async () => {
    const registry = new PrismaServerRegistry(database.client, { box: () => box, policy: () => policy });
    await expect(registry.save({ ...remote, id: "both", headers: { Authorization: "Bearer x" } })).rejects.toThrow(/remove the Authorization header/);
    await expect(registry.save({ ...remote, id: "m2m", oauth: { grant: "client_credentials", clientId: "c" } })).rejects.toThrow(/needs a client id and a client secret/);
    await expect(registry.save({ ...remote, id: "m2m", secrets: ["CLIENT_SECRET"], oauth: { grant: "client_credentials", clientId: "c", clientSecret: "CLIENT_SECRET" } }, { secretValues: { CLIENT_SECRET: "s" } })).resolves.toMatchObject({ id: "m2m" });
  });
});
