import { describe, expect, it } from "vitest";
import { mergeInserts } from "./merge-inserts";
import type { SqlStatement } from "./sql-database";

const insert = `INSERT INTO "T" ("a", "b")
   VALUES (?, ?) ON CONFLICT ("a") DO NOTHING`;

describe("mergeInserts", () => {
  it("sends consecutive rows of one insert as one multi-row statement, in order", () => {
    const merged = mergeInserts([[insert, [1, "x"]], [insert, [2, "y"]], [`UPDATE "T" SET "b" = ?`, ["z"]], [insert, [3, "w"]]]);
    expect(merged).toEqual([
      [`INSERT INTO "T" ("a", "b")\n   VALUES (?, ?), (?, ?) ON CONFLICT ("a") DO NOTHING`, [1, "x", 2, "y"]],
      [`UPDATE "T" SET "b" = ?`, ["z"]],
      [insert, [3, "w"]],
    ]);
  });

  it("leaves DO UPDATE inserts and guarded statements alone", () => {
    const upsert = `INSERT INTO "T" ("a") VALUES (?) ON CONFLICT ("a") DO UPDATE SET "a" = 1`;
    const guard: SqlStatement = [`SELECT 1 FROM "T" WHERE "a" = ?`, [1], { reason: "gone" }];
    const statements: SqlStatement[] = [[upsert, [1]], [upsert, [2]], guard, guard];
    expect(mergeInserts(statements)).toEqual(statements);
  });

  it("splits a long run of rows under the parameter limit", () => {
    const rows: SqlStatement[] = Array.from({ length: 40_000 }, (_, index) => [insert, [index, "v"]]);
    const merged = mergeInserts(rows);
    expect(merged.length).toBe(3);
    expect(merged.flatMap(([, params]) => params)).toEqual(rows.flatMap(([, params]) => params));
  });
});
