import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetRowError } from "../evals/dataset-rows";
import { DatasetStore } from "./datasets";
import { EvaluationStore } from "./evaluations";
import { sqliteDatabase } from "./sql/sqlite-database";
import type { SqlDatabase } from "./sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let db: SqlDatabase;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = sqliteDatabase(database.url);
  const now = new Date();
  await db.execute(`INSERT INTO "Workflow" ("id", "name", "description", "document", "createdAt", "updatedAt") VALUES ('w', 'w', '', '{}', ?, ?)`, [now, now]);
}, 60_000);

afterAll(async () => {
  await db?.close();
  await database?.dispose();
});

/** A file of `count` JSONL rows, produced line by line as a stream would deliver it. */
async function* rowsOf(count: number, broken?: number): AsyncGenerator<string> {
  for (let index = 0; index < count; index += 1) yield index + 1 === broken ? "{oops\n" : `${JSON.stringify({ input: { n: index }, expected: { result: index * 2 } })}\n`;
}

describe("DatasetStore", () => {
  it("stores a 10,000-row file as it streams, and the same file again is the same dataset", async () => {
    const store = new DatasetStore(db);
    const first = await store.save({ workflowId: "w", name: "big.jsonl", format: "jsonl", source: rowsOf(10_000) });
    expect(first).toMatchObject({ existing: false, dataset: { name: "big.jsonl", format: "jsonl", rowCount: 10_000 } });
    const again = await store.save({ workflowId: "w", name: "big-copy.jsonl", format: "jsonl", source: rowsOf(10_000) });
    expect(again).toEqual({ existing: true, dataset: first.dataset });
    const [count] = await db.query<{ rows: number }>(`SELECT COUNT(*) AS "rows" FROM "DatasetRow"`);
    expect(count.rows).toBe(10_000);
    // The evaluation reads it a page at a time.
    const evaluations = new EvaluationStore(db);
    await evaluations.create({ id: "e", workflowId: "w", datasetId: first.dataset.id, version: null, document: {}, scorers: [], by: null });
    const page = await evaluations.pending({ id: "e", datasetId: first.dataset.id }, 4_999, 3);
    expect(page).toEqual([5_000, 5_001, 5_002].map((n) => ({ row: { position: n, line: n + 1, input: { n }, expected: { result: n * 2 } }, runId: null })));
  }, 60_000);

  it("keeps nothing of a file with a malformed row, which names file:line", async () => {
    const store = new DatasetStore(db);
    const before = await store.datasets("w");
    const error = await store.save({ workflowId: "w", name: "broken.jsonl", format: "jsonl", source: rowsOf(600, 555) }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetRowError);
    expect((error as Error).message).toMatch(/^broken\.jsonl:555: not valid JSON/);
    expect(await store.datasets("w")).toEqual(before);
  });

  it("keeps a workflow's scorers", async () => {
    const store = new DatasetStore(db);
    expect(await store.scorers("w")).toEqual([]);
    await store.saveScorers("w", [{ kind: "contains", value: "km", path: "result" }, { kind: "number", tolerance: 0.5 }]);
    await store.saveScorers("w", [{ kind: "regex", pattern: "^\\d" }]);
    expect(await store.scorers("w")).toEqual([{ kind: "regex", pattern: "^\\d" }]);
  });
});
