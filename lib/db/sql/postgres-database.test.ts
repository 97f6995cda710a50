import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgres, type TestPostgres } from "../postgres/test-postgres";
import { postgresDatabase } from "./postgres-database";
import { GuardFailedError, type SqlDatabase } from "./sql-database";

let postgres: TestPostgres | { skipped: string };
let db: SqlDatabase;

beforeAll(async () => {
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
  else db = postgresDatabase(postgres.url);
}, 60_000);

afterAll(async () => {
  await db?.close();
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

const insertStep = `INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ("runId", "key") DO NOTHING`;

async function insertRun(workerId: string | null = null): Promise<string> {
  const runId = randomUUID();
  await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount", "workerId") VALUES (?, '{}', '{}', 'running', '{}', ?, 0, ?)`, [runId, new Date(), workerId]);
  return runId;
}

describe("Postgres transactions (prepared statements, one round trip)", () => {
  it("writes values as they are: quotes, backslashes, placeholders inside text, unicode, null, numbers, booleans, dates", async (context) => {
    if ("skipped" in postgres) return context.skip();
    const runId = await insertRun();
    const awkward = [`it's`, `C:\\path\\n`, `? and $1 and $$ quoted $$`, `日本語 🚀`, `'; DROP TABLE "Run"; --`];
    const at = new Date("2026-12-01T10:11:12.345Z");
    // Twice: the first transaction prepares the statement on the connection, the second only executes it.
    for (const round of [0, 1]) {
      await db.transaction(awkward.map((text, index) => [insertStep, [runId, `k${round}-${index}`, "tool-call", text, index, at]]));
    }
    const rows = await db.query<{ key: string; value: string; attempt: number; recordedAt: Date | string }>(`SELECT "key", "value", "attempt", "recordedAt" FROM "RunStep" WHERE "runId" = ? ORDER BY "key"`, [runId]);
    expect(rows.map((row) => row.value)).toEqual([...awkward, ...awkward]);
    expect(rows.map((row) => Number(row.attempt))).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
    expect(new Date(rows[0].recordedAt).toISOString()).toBe(at.toISOString());

    await db.transaction([
      [`UPDATE "Run" SET "error" = ?, "attention" = ?, "endedAt" = ? WHERE "id" = ?`, [null, "{}", at, runId]],
      [`UPDATE "Run" SET "outputs" = '{"none":true}' WHERE "id" = '${runId}'`, []], // no parameters: EXECUTE without parentheses
      [
        `INSERT INTO "ToolCall" ("id", "runId", "tool", "server", "caller", "arguments", "isError", "tainted", "startedAt", "durationMs", "sequence") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [`${runId}-call`, runId, "echo", "custom", "agent", "{}", true, false, at, 12, 1],
      ],
    ]);
    const [run] = await db.query<{ error: string | null; attention: string; outputs: string }>(`SELECT "error", "attention", "outputs" FROM "Run" WHERE "id" = ?`, [runId]);
    expect(run).toEqual({ error: null, attention: "{}", outputs: `{"none":true}` });
    const [call] = await db.query<{ isError: boolean; tainted: boolean; durationMs: number }>(`SELECT "isError", "tainted", "durationMs" FROM "ToolCall" WHERE "runId" = ?`, [runId]);
    expect(call).toEqual({ isError: true, tainted: false, durationMs: 12 });
  });

  it("commits the journal's transactions with synchronous_commit off, and leaves the other connections' setting alone", async (context) => {
    if ("skipped" in postgres) return context.skip();
    const runId = await insertRun();
    await db.transaction([[`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, 'setting', 'tool-call', current_setting('synchronous_commit'), 0, ?)`, [runId, new Date()]]]);
    const [step] = await db.query<{ value: string }>(`SELECT "value" FROM "RunStep" WHERE "runId" = ?`, [runId]);
    expect(step.value).toBe("off");
    const [outside] = await db.query<{ setting: string }>(`SELECT current_setting('synchronous_commit') AS "setting"`);
    expect(outside.setting).toBe("on");
  });

  it("sends a statement it cannot prepare (a parameter of no known type) whole, in the same transaction", async (context) => {
    if ("skipped" in postgres) return context.skip();
    const runId = await insertRun();
    await db.transaction([
      [`UPDATE "Run" SET "error" = ? WHERE "id" = ? AND ? IS NOT NULL`, ["set", runId, "anything"]],
      [insertStep, [runId, "k", "tool-call", "{}", 0, new Date()]],
    ]);
    const [run] = await db.query<{ error: string }>(`SELECT "error" FROM "Run" WHERE "id" = ?`, [runId]);
    expect(run.error).toBe("set");
  });

  it("a guard that finds no row refuses the whole transaction, and the connection goes on serving the next", async (context) => {
    if ("skipped" in postgres) return context.skip();
    const runId = await insertRun("worker-a");
    const fence = (workerId: string) => [`SELECT 1 AS "held" FROM "Run" WHERE "id" = ? AND "workerId" = ? FOR SHARE`, [runId, workerId], { reason: `${workerId} does not hold the run` }] as const;
    const refused = db.transaction([[insertStep, [runId, "before", "tool-call", "{}", 0, new Date()]], fence("worker-b"), [insertStep, [runId, "after", "tool-call", "{}", 0, new Date()]]]);
    await expect(refused).rejects.toBeInstanceOf(GuardFailedError);
    await expect(refused).rejects.toThrow("worker-b does not hold the run");
    await db.transaction([fence("worker-a"), [insertStep, [runId, "held", "tool-call", "{}", 0, new Date()]]]);
    const keys = await db.query<{ key: string }>(`SELECT "key" FROM "RunStep" WHERE "runId" = ?`, [runId]);
    expect(keys.map((row) => row.key)).toEqual(["held"]);
  });

  it("a connection the server dropped is replaced, and its statements are prepared again on the new one", async (context) => {
    if ("skipped" in postgres) return context.skip();
    const runId = await insertRun();
    await db.transaction([[insertStep, [runId, "first", "tool-call", "{}", 0, new Date()]]]);
    const [{ killed }] = await db.query<{ killed: number | string }>(`SELECT COUNT(pg_terminate_backend("pid")) AS "killed" FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()`);
    expect(Number(killed)).toBeGreaterThan(0);
    // The dropped connection may fail the one transaction that meets it; the next gets a new one.
    const retried = await db.transaction([[insertStep, [runId, "second", "tool-call", "{}", 0, new Date()]]]).then(() => false, () => true);
    if (retried) await db.transaction([[insertStep, [runId, "second", "tool-call", "{}", 0, new Date()]]]);
    const keys = await db.query<{ key: string }>(`SELECT "key" FROM "RunStep" WHERE "runId" = ? ORDER BY "key"`, [runId]);
    expect(keys.map((row) => row.key)).toEqual(["first", "second"]);
  });
});
