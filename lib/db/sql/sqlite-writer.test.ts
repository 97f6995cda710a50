import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../../testing/db/temporary-database.fixture";
import { sqliteDatabase } from "./sqlite-database";
import { GuardFailedError, type SqlDatabase, type SqlStatement } from "./sql-database";

let database: TemporaryDatabase;
let db: SqlDatabase;
beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = sqliteDatabase(database.url);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await database?.dispose();
});

const insertRun = (id: string): SqlStatement => [`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', ?, 'queued', '{}', ?, 0)`, [id, JSON.stringify({ padding: "x".repeat(2000) }), new Date()]];

describe("SQLite transactions commit on the writer thread", () => {
  it("this thread goes on while a large transaction commits, and reads what it committed once it resolves", async () => {
    const ids = Array.from({ length: 20_000 }, () => randomUUID());
    let committed = false;
    const committing = db.transaction(ids.map(insertRun)).then(() => (committed = true));
    // The group commit starts in a setImmediate queued before this one: on this thread, it would have committed
    // (and resolved) before this callback runs; on the writer thread, 20,000 rows are still being written.
    await new Promise((resolve) => setImmediate(resolve));
    expect(committed).toBe(false);
    await committing;
    const [{ count }] = await db.query<{ count: number }>(`SELECT COUNT(*) AS "count" FROM "Run" WHERE "id" IN (?, ?)`, [ids[0], ids.at(-1)]);
    expect(count).toBe(2);
  });

  it("a guard that finds nothing refuses the transaction with GuardFailedError and writes none of it; a durable one commits", async () => {
    const id = randomUUID();
    const guard: SqlStatement = [`SELECT 1 FROM "Run" WHERE "id" = ?`, ["no such run"], { reason: "the run is not held" }];
    await expect(db.transaction([guard, insertRun(id)])).rejects.toBeInstanceOf(GuardFailedError);
    await expect(db.transaction([guard, insertRun(id)])).rejects.toThrow("the run is not held");
    expect(await db.query(`SELECT "id" FROM "Run" WHERE "id" = ?`, [id])).toEqual([]);
    await db.transaction([insertRun(id)], { durable: true });
    expect(await db.query(`SELECT "id" FROM "Run" WHERE "id" = ?`, [id])).toEqual([{ id }]);
    expect((await db.query<{ synchronous: number }>("PRAGMA synchronous"))[0].synchronous).toBe(1);
  });

  it("a value that cannot cross to the thread refuses its transaction, and the same statement text still commits after it", async () => {
    const [bad, good] = [randomUUID(), randomUUID()];
    const [sql] = insertRun(bad);
    const text = `${sql} -- ${bad}`; // a statement text the thread has not seen yet
    const waiting = () => process.getActiveResourcesInfo().filter((name) => name === "MessagePort").length;
    const idle = waiting();
    await expect(db.transaction([[text, [bad, () => "not data", new Date()]]])).rejects.toThrow();
    expect(waiting(), "a message never sent leaves the thread holding the process open").toBe(idle);
    await db.transaction([[text, insertRun(good)[1]]]);
    expect(await db.query(`SELECT "id" FROM "Run" WHERE "id" IN (?, ?)`, [bad, good])).toEqual([{ id: good }]);
  });

  it("a statement the database refuses rejects with its error, and the others of its group still commit", async () => {
    const [good, other] = [randomUUID(), randomUUID()];
    const results = await Promise.allSettled([db.transaction([insertRun(good)]), db.transaction([[`INSERT INTO "NoSuchTable" ("id") VALUES (?)`, [other]]])]);
    expect(results[0].status).toBe("fulfilled");
    expect(results[1].status === "rejected" && String(results[1].reason.message)).toMatch(/no such table/);
    expect(await db.query(`SELECT "id" FROM "Run" WHERE "id" = ?`, [good])).toEqual([{ id: good }]);
  });
});
