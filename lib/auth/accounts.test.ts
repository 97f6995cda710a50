import { describe, expect, it } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { createFirstOwner, prepareOwner } from "./owner-setup";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { secretHash } from "../security/secret-tokens";
import { databaseLimiters, SignInLimits } from "./rate-limits";
import { checkSignIn, wrongSignIn } from "./sign-in";

const database = temporaryAppDatabase();
const store = () => new PrismaAccounts(database.client);
const parameters = (hash: string) => hash.split("$").slice(0, 4).join("$");

describe("passwords", () => {
  it("hash with scrypt (N=2^15, r=8, p=1) and a fresh salt, and verify", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    expect(parameters(first)).toBe("scrypt$32768$8$1");
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse batterz", first)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
  });
});

describe("signing in", () => {
  it("answers a wrong password and an unknown email with the same message, checking a hash of the same cost for both", async () => {
    const owner = await createFirstOwner(store(), "Owner@Example.test", "a good long password");
    expect(owner).toMatchObject({ ok: true, owner: { email: "owner@example.test", role: "owner" } });
    expect(await checkSignIn(store(), "owner@example.test", "a good long password", from("198.51.100.1"))).toMatchObject({ ok: true, user: { email: "owner@example.test" } });
    const wrongPassword = await checkSignIn(store(), "owner@example.test", "not the password", from("198.51.100.1"));
    const unknownEmail = await checkSignIn(store(), "nobody@example.test", "not the password", from("198.51.100.1"));
    expect(wrongPassword).toEqual({ ok: false, error: wrongSignIn });
    expect(unknownEmail).toEqual(wrongPassword);
    // The same work: the unknown email is checked against a dummy hash with the stored hash's parameters.
    const stored = await store().findForSignIn("owner@example.test");
    expect(parameters(await dummyPasswordHash())).toBe(parameters(stored!.passwordHash));
  });

  it("slows wrong attempts for one email from one address, known or not, without locking anyone out", async () => {
    const limits = new SignInLimits(databaseLimiters(database.client));
    for (let attempt = 0; attempt < 5; attempt++) expect(await checkSignIn(store(), "flood@example.test", `guess ${attempt}`, from("203.0.113.5", limits))).toEqual({ ok: false, error: wrongSignIn });
    // The sixth wrong one starts the delay: the next attempt from that address waits before any password is checked.
    expect(await checkSignIn(store(), "flood@example.test", "guess 6", from("203.0.113.5", limits))).toEqual({ ok: false, error: wrongSignIn });
    expect(await checkSignIn(store(), "flood@example.test", "guess 7", from("203.0.113.5", limits))).toMatchObject({ ok: false, error: expect.stringMatching(/Too many wrong attempts for this email from your address; try again in 2 seconds/) });
  });
});

/** The attempt's source: its address and the limits it meets (counted in this file's database). */
function from(address: string, limits = new SignInLimits(databaseLimiters(database.client))) {
  return { address, limits };
}

describe("sessions", () => {
  it("refuses a session cookie from before a password change", async () => {
    const { startSession, sessionUser } = await import("./sessions");
    const person = await store().createUser({ email: "changer@example.test", role: "editor", passwordHash: await hashPassword("first password 1") });
    const before = await startSession(person!.id);
    expect(await sessionUser(before.value)).toMatchObject({ email: "changer@example.test" });
    await store().setPassword(person!.id, await hashPassword("second password 2"));
    expect(await sessionUser(before.value)).toBeNull();
    // The second lock: a row that outlived the change (restored from a backup, say) is refused by its age.
    await database.client.session.create({ data: { idHash: secretHash("survivor"), userId: person!.id, createdAt: new Date(Date.now() - 60_000), expiresAt: new Date(Date.now() + 60_000) } });
    expect(await sessionUser("survivor")).toBeNull();
    const after = await startSession(person!.id);
    expect(await sessionUser(after.value)).toMatchObject({ role: "editor" });
    expect(await sessionUser("never-issued")).toBeNull();
  });

  it("refuses an expired session", async () => {
    const { startSession, sessionUser } = await import("./sessions");
    const person = await store().createUser({ email: "late@example.test", role: "viewer", passwordHash: "x" });
    const session = await startSession(person!.id, new Date(Date.now() - 15 * 24 * 60 * 60 * 1000));
    expect(await sessionUser(session.value)).toBeNull();
  });
});

describe("the first owner", () => {
  it("is refused once an owner exists, from the set-up screen and from the environment alike", async () => {
    expect(await createFirstOwner(store(), "second@example.test", "another long password")).toMatchObject({ ok: false, error: expect.stringContaining("already has an owner") });
    expect(await prepareOwner(store(), { baseUrl: "http://127.0.0.1:3000", env: { SWITCHBOARD_OWNER_EMAIL: "x@example.test", SWITCHBOARD_OWNER_PASSWORD: "long enough password" } as unknown as NodeJS.ProcessEnv })).toContain("an owner exists");
  });
});
