import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SecretBox } from "../security/secrets";
import { CredentialUnreadableError, PrismaCredentialStore, storedCredentials } from "./credentials";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let store: PrismaCredentialStore;
const box = new SecretBox(Buffer.alloc(32, 5));

beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => database?.dispose());
beforeEach(async () => {
  await database.client.nodeCredential.deleteMany();
  store = new PrismaCredentialStore(database.client, { box: () => box });
});

const github = { name: "github", displayName: "GitHub token", required: false, fields: ["token"], description: "" };

describe("PrismaCredentialStore", () => {
  it("stores field values encrypted and says only which fields are set", async () => {
    await store.set("github", "github", { token: "ghp_secret_value_1" });
    const raw = await database.client.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM "NodeCredential"`;
    expect(JSON.stringify(raw)).not.toContain("ghp_secret_value_1");
    expect(raw[0]).toMatchObject({ nodeType: "github", name: "github", fields: '["token"]' });
    const status = await store.status();
    expect(status).toEqual([{ nodeType: "github", name: "github", fields: ["token"], origins: [], updatedAt: expect.any(Date) }]);
    expect(JSON.stringify(status)).not.toContain("ghp_secret_value_1");
    expect(await store.values("github", "github")).toEqual({ token: "ghp_secret_value_1" });
  });

  it("keeps fields left empty, replaces given ones, and clears", async () => {
    await store.set("basic-node", "login", { username: "ada", password: "first-password" });
    await store.set("basic-node", "login", { username: "", password: "second-password" });
    expect(await store.values("basic-node", "login")).toEqual({ username: "ada", password: "second-password" });
    expect(await store.clear("basic-node", "login")).toBe(true);
    expect(await store.values("basic-node", "login")).toBeNull();
  });

  it("refuses to open a credential moved to another node type with SQL", async () => {
    await store.set("github", "github", { token: "ghp_secret_value_1" });
    await database.client.$executeRaw`UPDATE "NodeCredential" SET "nodeType" = 'http-request' WHERE "nodeType" = 'github'`;
    await expect(store.values("http-request", "github")).rejects.toBeInstanceOf(CredentialUnreadableError);
  });

  it("gives the engine stored values first, then SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD> where the engine's gate lets the node type take it", async () => {
    const credentials = storedCredentials(store, { SWITCHBOARD_CREDENTIAL_GITHUB_TOKEN: "from-environment", SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY: "sk-env" });
    const everything = () => true;
    expect(await credentials("github", [github], everything)).toEqual({ github: { token: "from-environment" } });
    await store.set("github", "github", { token: "ghp_stored" });
    expect(await credentials("github", [github], everything)).toEqual({ github: { token: "ghp_stored" } });
    const openai = { name: "openai", displayName: "API key", required: false, fields: ["apiKey"], description: "" };
    expect(await credentials("openai-agent", [openai], everything)).toEqual({ openai: { apiKey: "sk-env" } });
    // Not let through by the gate: the environment's value stays out (a stored one is the person's choice for that node type).
    expect(await credentials("imported-agent", [openai], () => false)).toEqual({});
  });
});
