import { beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryAppDatabase } from "@/lib/db/temporary-app-database";
import { PrismaAccounts } from "@/lib/db/accounts";
import { PrismaCredentialStore } from "@/lib/db/credentials";
import { SecretBox } from "@/lib/security/secrets";
import type { Role } from "@/lib/auth/roles";

/**
 * Issue 10, item 2: importing or editing a workflow so that a credentialed
 * call goes to a new origin says so in the action's answer, saves the
 * workflow anyway, and only an owner's approval makes the origin allowed.
 * Real actions, real sessions, a temporary database.
 */

// TEST DOUBLE for the request: the cookie jar of the person acting; Next's cache is not under test.
const jar = { value: undefined as string | undefined };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "switchboard_session" && jar.value ? { name, value: jar.value } : undefined), set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("server-only", () => ({}));

const database = temporaryAppDatabase();
const cookies = new Map<Role, string>();

beforeAll(async () => {
  const { startSession } = await import("@/lib/auth/sessions");
  const accounts = new PrismaAccounts(database.client);
  for (const role of ["owner", "editor"] as const) {
    const person = await accounts.createUser({ email: `${role}@example.test`, role, passwordHash: "scrypt$unused" });
    cookies.set(role, (await startSession(person!.id)).value);
  }
  // The person's stored OpenAI key (sealed with a test key: the review reads only which fields are set).
  await new PrismaCredentialStore(database.client, { box: () => new SecretBox(Buffer.alloc(32, 7)) }).set("openai-agent", "openai", { apiKey: "sk-stored-key-0123456789" });
}, 60_000);

function as(role: Role) {
  jar.value = cookies.get(role);
}

function document(baseUrl?: string) {
  return {
    version: 1,
    name: "Shared agent",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
      { id: "agent", type: "openai-agent", position: { x: 200, y: 0 }, config: { model: "gpt-4o-mini", ...(baseUrl ? { baseUrl } : {}) } },
      { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    ],
    edges: [
      { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
      { id: "e2", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    ],
  };
}

describe("credential origins on import and save", () => {
  it("an import whose agent's baseUrl is a new origin: imported, and the answer names node, credential, origin", async () => {
    const { importWorkflowAction } = await import("./workflows");
    as("editor");
    const result = await importWorkflowAction(JSON.stringify(document("https://attacker.example/v1")));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.originChanges).toEqual([
      { nodeId: "agent", nodeType: "openai-agent", credential: "openai", before: [], after: ["https://attacker.example"], unapproved: ["https://attacker.example"], approved: ["https://api.openai.com"] },
    ]);
    expect(result.pendingOrigins).toHaveLength(1);
  });

  it("an import that keeps the default origin reports nothing", async () => {
    const { importWorkflowAction } = await import("./workflows");
    as("editor");
    const result = await importWorkflowAction(JSON.stringify(document()));
    expect(result).toMatchObject({ ok: true, originChanges: [], pendingOrigins: [] });
  });

  it("a save that changes the baseUrl says before → after; an unchanged save says nothing; the owner's approval clears it; an editor cannot approve", async () => {
    const { importWorkflowAction, saveWorkflowDocumentAction } = await import("./workflows");
    const { approveOriginAction } = await import("./grants");
    as("editor");
    const imported = await importWorkflowAction(JSON.stringify(document()));
    if (!imported.ok) throw new Error(imported.error);

    const changed = await saveWorkflowDocumentAction(imported.id, document("https://attacker.example/v1"));
    expect(changed).toMatchObject({ ok: true, originChanges: [{ nodeId: "agent", credential: "openai", before: ["https://api.openai.com"], after: ["https://attacker.example"] }] });
    const stored = await database.client.workflow.findUnique({ where: { id: imported.id } });
    expect(stored?.document).toContain("https://attacker.example/v1");

    const unchanged = await saveWorkflowDocumentAction(imported.id, document("https://attacker.example/v1"));
    expect(unchanged).toMatchObject({ ok: true, originChanges: [], pendingOrigins: [{ nodeId: "agent", unapproved: ["https://attacker.example"] }] });

    await expect(approveOriginAction(imported.id, "openai-agent", "openai", "https://attacker.example")).rejects.toMatchObject({ name: "AccessRefused", status: 403 });
    as("owner");
    expect(await approveOriginAction(imported.id, "openai-agent", "openai", "https://attacker.example")).toEqual({ ok: true });
    as("editor");
    const approved = await saveWorkflowDocumentAction(imported.id, document("https://attacker.example/v1"));
    expect(approved).toMatchObject({ ok: true, originChanges: [], pendingOrigins: [] });
  });
});
