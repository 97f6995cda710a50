import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fakeDateClock } from "@/testing/fake-date-clock";
import { createPrismaClient, type PrismaClient } from "@/lib/db/create-client";
import { createTestPostgres, type TestPostgres } from "@/lib/db/postgres/test-postgres";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { clientAddress } from "./client-address";
import { authorizeEndpointBearer, type EndpointTokenBook } from "./endpoint-bearer";
import { hashPassword } from "./passwords";
import { BearerTokenLimits, databaseLimiters, SignInLimits, signInDelaySeconds } from "./rate-limits";
import { checkSignIn, wrongSignIn } from "./sign-in";

const database = temporaryAppDatabase();
const accounts = () => new PrismaAccounts(database.client);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const validToken = "a-long-enough-token-1234";
/** TEST DOUBLE for the token store: no stored tokens, the environment's token only. */
const book: EndpointTokenBook = { environmentToken: validToken, findToken: async () => null, hasTokens: async () => false };
const call = (token: string, forwardedFor: string) => new Request("http://127.0.0.1:3000/api/mcp/demo", { method: "POST", headers: { host: "127.0.0.1:3000", authorization: `Bearer ${token}`, "x-forwarded-for": forwardedFor } });

describe("wrong bearer tokens, counted in the database", () => {
  it("1,000 wrong tokens from forged addresses, through two web processes, leave a valid token working; the flood itself is answered 429", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    // Two web processes: each its own limiter objects over the one database.
    const processes = [new BearerTokenLimits(databaseLimiters(database.client)), new BearerTokenLimits(databaseLimiters(database.client))];
    const statuses = new Map<number, number>();
    for (let guess = 0; guess < 1000; guess++) {
      const forged = `10.${Math.floor(guess / 250)}.${guess % 250}.1`;
      const refused = await authorizeEndpointBearer(call(`wrong-token-${guess}-abcdefgh`, forged), book, "runner", { limits: processes[guess % 2], trustedProxies: [] });
      const status = refused.ok ? 200 : refused.response.status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // 200 wrong ones a minute from everyone together, counted across both processes; the rest wait.
    expect(statuses).toEqual(new Map([[401, 200], [429, 800]]));
    for (const [index, limits] of processes.entries()) {
      expect(await authorizeEndpointBearer(call(validToken, `10.9.9.${index}`), book, "runner", { limits, trustedProxies: [] })).toMatchObject({ ok: true, actor: { role: "owner" } });
      // From an address that did send wrong tokens too.
      expect(await authorizeEndpointBearer(call(validToken, "10.0.0.1"), book, "runner", { limits, trustedProxies: [] })).toMatchObject({ ok: true });
    }
  }, 120_000);

  it("wrong tokens counted at the same moment over two connections are all counted, none lost to a collision on a new row", async () => {
    await database.client.rateLimit.deleteMany(); // the flood above filled this minute's overall count
    const second = createPrismaClient(database.url);
    try {
      const processes = [new BearerTokenLimits(databaseLimiters(database.client)), new BearerTokenLimits(databaseLimiters(second))];
      await Promise.all(Array.from({ length: 40 }, (_, index) => processes[index % 2].failed(`192.0.2.${150 + (index % 4)}`)));
      const rows = await database.client.rateLimit.findMany({ where: { key: { startsWith: "bearer-address:" } } });
      expect(rows.map((row) => row.points).sort()).toEqual([10, 10, 10, 10]);
    } finally {
      await second.$disconnect();
    }
  });

  it("X-Forwarded-For is believed only through the listed proxies: a forged entry before the proxy's does not change whose failures count", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const limits = new BearerTokenLimits(databaseLimiters(database.client));
    const viaProxy = (forged: string) => `${forged}, 203.0.113.50, 10.0.0.2`;
    for (let guess = 0; guess < 20; guess++) await authorizeEndpointBearer(call(`guess-${guess}-abcdefghij`, viaProxy(`198.51.100.${guess}`)), book, "runner", { limits, trustedProxies: ["10.0.0.2"] });
    const next = await authorizeEndpointBearer(call("guess-21-abcdefghij", viaProxy("198.51.100.99")), book, "runner", { limits, trustedProxies: ["10.0.0.2"] });
    expect(next.ok || next.response.status).toBe(429);
    expect(clientAddress("1.2.3.4, 203.0.113.50, 10.0.0.2", ["10.0.0.2"])).toBe("203.0.113.50");
    expect(clientAddress("1.2.3.4, 203.0.113.50", [])).toBe("203.0.113.50");
    expect(clientAddress("::ffff:10.0.0.2", ["10.0.0.2"])).toBe("10.0.0.2");
    expect(clientAddress(null, [])).toBe("unknown address");
  });
});

describe("wrong sign-ins, counted in the database", () => {
  it("50 wrong passwords for the owner's email leave the owner able to sign in: at once from another address, from the same one after the delay", async () => {
    const clock = fakeDateClock();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await accounts().createUser({ email: "owner@example.test", role: "owner", passwordHash: await hashPassword("the owner's own password") });
    const limits = new SignInLimits(databaseLimiters(database.client));
    const attacker = { address: "203.0.113.66", limits };
    let checked = 0;
    let waited = 0;
    // The attacker waits out every delay, so all 50 passwords are checked.
    while (checked < 50) {
      const answer = await checkSignIn(accounts(), "owner@example.test", `guess ${checked}`, attacker);
      if (answer.ok) throw new Error("a guess matched");
      if (answer.error === wrongSignIn) checked++;
      else {
        const seconds = Number(/try again in (\d+) second/.exec(answer.error)?.[1]);
        expect(seconds).toBeGreaterThan(0);
        expect(seconds).toBeLessThanOrEqual(60);
        waited++;
        clock.advanceSeconds(seconds);
      }
    }
    expect(waited).toBeGreaterThan(0);
    // Another address (the owner's): no wait at all.
    expect(await checkSignIn(accounts(), "owner@example.test", "the owner's own password", { address: "198.51.100.7", limits })).toMatchObject({ ok: true, user: { email: "owner@example.test" } });
    // The same address (the owner behind the attacker's NAT): after the delay, which is at most a minute.
    const held = await checkSignIn(accounts(), "owner@example.test", "the owner's own password", attacker);
    expect(held).toMatchObject({ ok: false, error: expect.stringContaining("try again in 60 seconds") });
    clock.advanceSeconds(60);
    expect(await checkSignIn(accounts(), "owner@example.test", "the owner's own password", attacker)).toMatchObject({ ok: true });
  }, 120_000);

  it("one password sprayed across many emails from one address is stopped after 30, for that address only", async () => {
    fakeDateClock();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const limits = new SignInLimits(databaseLimiters(database.client));
    const sprayer = { address: "192.0.2.200", limits };
    for (let person = 0; person < 30; person++) expect(await checkSignIn(accounts(), `person${person}@example.test`, "Summer2026!", sprayer)).toEqual({ ok: false, error: wrongSignIn });
    expect(await checkSignIn(accounts(), "person30@example.test", "Summer2026!", sprayer)).toMatchObject({ ok: false, error: expect.stringContaining("Too many wrong sign-ins from your address; try again in 15 minutes") });
    expect(await checkSignIn(accounts(), "person30@example.test", "Summer2026!", { address: "192.0.2.201", limits })).toEqual({ ok: false, error: wrongSignIn });
  }, 120_000);

  it("the delay doubles after five wrong attempts and stops at a minute", () => {
    expect([1, 5, 6, 7, 8, 10, 11, 50].map(signInDelaySeconds)).toEqual([0, 0, 2, 4, 8, 32, 60, 60]);
  });
});

describe("the same counters on Postgres (the store adapter is the library's Prisma one, for both databases)", () => {
  let postgres: TestPostgres | { skipped: string };
  let client: PrismaClient | undefined;
  beforeAll(async () => {
    postgres = await createTestPostgres();
    if ("skipped" in postgres) console.log(postgres.skipped);
    else client = createPrismaClient(postgres.url);
  }, 60_000);
  afterAll(async () => {
    await client?.$disconnect();
    if (postgres && !("skipped" in postgres)) await postgres.dispose();
  });

  it("two web processes count wrong tokens together, and a valid token still gets in", async (context) => {
    if (!client) return context.skip();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const processes = [new BearerTokenLimits(databaseLimiters(client)), new BearerTokenLimits(databaseLimiters(client))];
    const statuses: number[] = [];
    for (let guess = 0; guess < 250; guess++) {
      const refused = await authorizeEndpointBearer(call(`wrong-token-${guess}-abcdefgh`, `10.1.${guess}.1`), book, "runner", { limits: processes[guess % 2], trustedProxies: [] });
      statuses.push(refused.ok ? 200 : refused.response.status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(200);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    expect(await authorizeEndpointBearer(call(validToken, "10.1.0.1"), book, "runner", { limits: processes[1], trustedProxies: [] })).toMatchObject({ ok: true });
  }, 120_000);
});
