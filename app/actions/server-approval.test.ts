import { beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { PrismaServerRegistry } from "@/lib/db/servers";
import type { Role } from "@/lib/auth/roles";

// TEST DOUBLE for the request: the cookie jar of the person acting; Next's cache is not under test.
const jar = { value: undefined as string | undefined };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "switchboard_session" && jar.value ? { name, value: jar.value } : undefined), set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// Next's redirect ends the action by throwing; here it throws a marker the test expects.
vi.mock("next/navigation", () => ({ redirect: (to: string) => { throw Object.assign(new Error(`redirect ${to}`), { redirectedTo: to }); } }));

const database = temporaryAppDatabase();
const cookies = new Map<Role, string>();
let action: typeof import("./servers").saveServerApprovalAction;
let saveEntry: typeof import("./servers").saveServerAction;

beforeAll(async () => {
  const { startSession } = await import("@/lib/auth/sessions");
  const store = new PrismaAccounts(database.client);
  for (const role of ["viewer", "runner", "editor", "owner"] as const) {
    const person = await store.createUser({ email: `${role}@example.test`, role, passwordHash: "scrypt$unused" });
    cookies.set(role, (await startSession(person!.id)).value);
  }
  await new PrismaServerRegistry(database.client).save({ id: "mail", name: "Mail", transport: "stdio", command: "node", args: ["mail-server.js"] });
  ({ saveServerApprovalAction: action, saveServerAction: saveEntry } = await import("./servers"));
}, 60_000);

const stored = async () => (await new PrismaServerRegistry(database.client).load("mail"))?.approval;

describe("saving a server's default approval policies", () => {
  it("is refused below editor, with the role it needs, and changes nothing", async () => {
    for (const role of ["viewer", "runner"] as const) {
      jar.value = cookies.get(role);
      await expect(action("mail", { policy: '"allow"', tools: "" })).rejects.toMatchObject({ name: "AccessRefused", status: 403, message: expect.stringContaining("This needs an editor (or higher)") });
    }
    jar.value = undefined;
    await expect(action("mail", { policy: '"allow"', tools: "" })).rejects.toMatchObject({ status: 401 });
    expect(await stored()).toBeUndefined();
  });

  it("stores an editor's defaults in the registry, keeps the entry as it was, and clears them again", async () => {
    jar.value = cookies.get("editor");
    expect(await action("mail", { policy: '"ask"', tools: '{ "list_drafts": "allow" }' })).toMatchObject({ ok: true });
    expect(await stored()).toEqual({ policy: "ask", tools: { list_drafts: "allow" } });
    expect(await new PrismaServerRegistry(database.client).load("mail")).toMatchObject({ command: "node", args: ["mail-server.js"] });
    jar.value = cookies.get("owner");
    expect(await action("mail", { policy: "", tools: "" })).toMatchObject({ ok: true, message: expect.stringContaining("no approval defaults") });
    expect(await stored()).toBeUndefined();
  });

  it("refuses bad input naming the field, and an unknown server, changing nothing", async () => {
    jar.value = cookies.get("editor");
    await action("mail", { policy: '"deny"', tools: "" });
    expect(await action("mail", { policy: "", tools: '{ "send_email": { "decide": "perhaps" } }' })).toMatchObject({ ok: false, field: "tools.send_email.decide" });
    expect(await action("mail", { policy: "yes", tools: "" })).toMatchObject({ ok: false, field: "policy", error: expect.stringContaining("not valid JSON") });
    expect(await action("nowhere", { policy: '"ask"', tools: "" })).toMatchObject({ ok: false, error: "There is no server 'nowhere'; it may have been deleted." });
    expect(await stored()).toEqual({ policy: "deny" });
  });

  it("survives an owner editing the server's entry with the entry form, which does not carry them", async () => {
    jar.value = cookies.get("owner");
    await action("mail", { policy: '"ask"', tools: '{ "send_email": "deny" }' });
    const form = new FormData();
    for (const [name, value] of Object.entries({ mode: "edit", serverId: "mail", serverName: "Mail (renamed)", transport: "stdio", catalogue: "test-double", "parameter.script": "mail-server.js", enabled: "on" })) form.set(name, value);
    await expect(saveEntry(null, form)).rejects.toMatchObject({ redirectedTo: "/servers?saved=mail" });
    expect(await new PrismaServerRegistry(database.client).load("mail")).toMatchObject({ name: "Mail (renamed)", approval: { policy: "ask", tools: { send_email: "deny" } } });
  });
});
