import { createHash, randomUUID } from "node:crypto";
import { type DatasetFormat, type DatasetRow, parseScorer, readDatasetRows, type Scorer } from "../evals";
import { isoFromSql, type SqlDatabase, type SqlStatement } from "./sql/sql-database";

/** A stored dataset as the Tests page lists it. */
export interface DatasetRecord {
  id: string;
  workflowId: string;
  name: string;
  format: DatasetFormat;
  rowCount: number;
  createdAt: string;
}

/** Rows written per transaction while a file streams in. */
const batchSize = 250;

/**
 * A workflow's datasets and its Tests settings (the scorers). A dataset is
 * written as its file streams in, a batch of rows at a time; the same file
 * (by SHA-256) given again for the same workflow is the dataset stored
 * before.
 */
export class DatasetStore {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Reads a dataset file as it streams and stores its rows. A malformed row
   * throws its DatasetRowError (file:line, the field) and nothing of the
   * file is kept.
   */
  async save(request: { workflowId: string; name: string; format: DatasetFormat; source: AsyncIterable<Uint8Array | string> }): Promise<{ dataset: DatasetRecord; existing: boolean }> {
    const id = randomUUID();
    const hash = createHash("sha256");
    async function* hashed(): AsyncGenerator<Uint8Array | string> {
      for await (const chunk of request.source) {
        hash.update(chunk);
        yield chunk;
      }
    }
    const now = new Date();
    // Written under a placeholder hash, taken by the real one once the whole file has been read.
    await this.db.execute(`INSERT INTO "Dataset" ("id", "workflowId", "name", "format", "sha256", "rowCount", "createdAt") VALUES (?, ?, ?, ?, ?, 0, ?)`, [id, request.workflowId, request.name, request.format, `reading:${id}`, now]);
    let count = 0;
    try {
      let batch: DatasetRow[] = [];
      for await (const row of readDatasetRows(hashed(), { file: request.name, format: request.format })) {
        batch.push(row);
        if (batch.length === batchSize) {
          await this.db.transaction([rowInsert(id, batch)]);
          count += batch.length;
          batch = [];
        }
      }
      if (batch.length > 0) await this.db.transaction([rowInsert(id, batch)]);
      count += batch.length;
    } catch (error) {
      await this.db.execute(`DELETE FROM "Dataset" WHERE "id" = ?`, [id]);
      throw error;
    }
    const sha256 = hash.digest("hex");
    const [before] = await this.db.query<{ id: string }>(`SELECT "id" FROM "Dataset" WHERE "workflowId" = ? AND "sha256" = ?`, [request.workflowId, sha256]);
    if (before) {
      await this.db.execute(`DELETE FROM "Dataset" WHERE "id" = ?`, [id]);
      return { dataset: (await this.dataset(before.id))!, existing: true };
    }
    await this.db.execute(`UPDATE "Dataset" SET "sha256" = ?, "rowCount" = ? WHERE "id" = ?`, [sha256, count, id]);
    return { dataset: (await this.dataset(id))!, existing: false };
  }

  async dataset(id: string): Promise<DatasetRecord | null> {
    const [row] = await this.db.query<DatasetSqlRow>(`SELECT "id", "workflowId", "name", "format", "rowCount", "createdAt" FROM "Dataset" WHERE "id" = ? AND "sha256" NOT LIKE 'reading:%'`, [id]);
    return row ? datasetRecord(row) : null;
  }

  /** A workflow's datasets, newest first. */
  async datasets(workflowId: string): Promise<DatasetRecord[]> {
    const rows = await this.db.query<DatasetSqlRow>(
      `SELECT "id", "workflowId", "name", "format", "rowCount", "createdAt" FROM "Dataset" WHERE "workflowId" = ? AND "sha256" NOT LIKE 'reading:%' ORDER BY "createdAt" DESC, "id"`,
      [workflowId],
    );
    return rows.map(datasetRecord);
  }

  /** The scorers a workflow's evaluations apply (none stored: none, and rows are compared exactly). */
  async scorers(workflowId: string): Promise<Scorer[]> {
    const [row] = await this.db.query<{ scorers: string }>(`SELECT "scorers" FROM "WorkflowTestSettings" WHERE "workflowId" = ?`, [workflowId]);
    if (!row) return [];
    const value = JSON.parse(row.scorers) as unknown;
    return Array.isArray(value) ? value.map((scorer, index) => parseScorer(scorer, `scorers[${index}]`)) : [];
  }

  /** Replaces a workflow's scorers (already parsed with parseScorer). */
  async saveScorers(workflowId: string, scorers: readonly Scorer[]): Promise<void> {
    await this.db.execute(
      `INSERT INTO "WorkflowTestSettings" ("workflowId", "scorers", "updatedAt") VALUES (?, ?, ?) ON CONFLICT ("workflowId") DO UPDATE SET "scorers" = excluded."scorers", "updatedAt" = excluded."updatedAt"`,
      [workflowId, JSON.stringify(scorers), new Date()],
    );
  }
}

interface DatasetSqlRow {
  id: string;
  workflowId: string;
  name: string;
  format: string;
  rowCount: unknown;
  createdAt: unknown;
}

function datasetRecord(row: DatasetSqlRow): DatasetRecord {
  return { id: row.id, workflowId: row.workflowId, name: row.name, format: row.format === "csv" ? "csv" : "jsonl", rowCount: Number(row.rowCount), createdAt: isoFromSql(row.createdAt) };
}

/** One multi-row INSERT for a batch. */
function rowInsert(datasetId: string, rows: readonly DatasetRow[]): SqlStatement {
  const values = rows.map(() => "(?, ?, ?, ?, ?)").join(", ");
  const params = rows.flatMap((row) => [datasetId, row.position, row.line, JSON.stringify(row.input), row.expected === undefined ? null : JSON.stringify(row.expected)]);
  return [`INSERT INTO "DatasetRow" ("datasetId", "position", "line", "input", "expected") VALUES ${values}`, params];
}
