import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { collectRoleChecks } from "@/lib/auth/role-table";
import { roleAtLeast, roles, type Role } from "@/lib/auth/roles";

/**
 * Walks EVERY exported server action (as lib/auth/role-table.ts finds them)
 * as each role, through a real session cookie of a real account in a
 * temporary database: below the action's minimum it is refused with a
 * message naming the role it needs; at or above, the role check lets it
 * through (it then refuses the junk input on its own). New actions are
 * walked as soon as they exist.
 */

// TEST DOUBLE for the request: the cookie jar of the role being walked; Next's cache and redirects are not under test.
const jar = { value: undefined as string | undefined };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "switchboard_session" && jar.value ? { name, value: jar.value } : undefined), set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const database = temporaryAppDatabase();
const root = path.resolve(import.meta.dirname, "../..");
const actions = collectRoleChecks(root).filter((entry) => entry.kind === "server action" && entry.needs !== "anyone");
const cookies = new Map<Role, string>();

beforeAll(async () => {
  const { startSession } = await import("@/lib/auth/sessions");
  const store = new PrismaAccounts(database.client);
  for (const role of roles) {
    const person = await store.createUser({ email: `${role}@example.test`, role, passwordHash: "scrypt$unused" });
    cookies.set(role, (await startSession(person!.id)).value);
  }
}, 60_000);

/** Calls the action with input it refuses, so an allowed call has no effect. */
async function call(file: string, name: string): Promise<unknown> {
  const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return module[name](null, new FormData());
}

async function refusal(file: string, name: string): Promise<{ name?: string; message?: string; status?: number } | null> {
  try {
    await call(file, name);
    return null;
  } catch (error) {
    const thrown = error as { name?: string; message?: string; status?: number };
    return thrown.name === "AccessRefused" ? thrown : null;
  }
}

describe("every server action, as each role", () => {
  it("finds the actions to walk", () => {
    expect(actions.length).toBeGreaterThan(20);
  });

  for (const action of actions) {
    const minimum = action.needs as Role;
    it(`${action.name} (${action.file}) needs ${minimum}`, { timeout: 60_000 }, async () => {
      jar.value = undefined;
      expect(await refusal(action.file, action.name)).toMatchObject({ status: 401, message: expect.stringContaining("not signed in") });
      for (const role of roles) {
        jar.value = cookies.get(role);
        const refused = await refusal(action.file, action.name);
        if (roleAtLeast(role, minimum)) expect(refused, `${role} should be let through`).toBeNull();
        else expect(refused, `${role} should be refused`).toMatchObject({ status: 403, message: expect.stringMatching(new RegExp(`needs an? ${minimum} \\(or higher\\); ${role}@example\\.test is an? ${role}`)) });
      }
    });
  }
});
