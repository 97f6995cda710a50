import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTotals } from "../trace/run-totals";
import { createPrismaClient, type PrismaClient } from "./create-client";
import { createTestPostgres, type TestPostgres } from "./postgres/test-postgres";
import { DatabaseRunJournal } from "./run-journal-store";
import { PrismaRunSink } from "./run-sink";
import { readTurnPlaces } from "./turn-reads";
import { postgresDatabase } from "./sql/postgres-database";
import type { SqlDatabase } from "./sql/sql-database";
import { sqliteDatabase } from "./sql/sqlite-database";
import { readRunTotals } from "./run-totals";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { readWholeRunTrace } from "./whole-run-trace";

let database: TemporaryDatabase;
let postgres: TestPostgres | { skipped: string };
beforeAll(async () => {
  database = await createTemporaryDatabase();
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
}, 60_000);
afterAll(async () => {
  await database?.dispose();
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

const at = (ms: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, 0, ms)).toISOString();

/** One run of an agent with three calls: two from one turn (the same usage), one from the next. */
async function recordRun(runId: string): Promise<void> {
  const sink = new PrismaRunSink(database.client, { document: { name: "Totals" } });
  await sink.runStart({ runId, workflowId: null, input: {}, startedAt: at(0) });
  await sink.nodeStart({ runId, nodeRunId: `${runId}-agent`, nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at(1) });
  const call = (id: string, ms: number, inputTokens: number | null, outputTokens: number | null) =>
    sink.toolCall({ id: `${runId}-${id}`, runId, nodeRunId: `${runId}-agent`, tool: "t", server: "s", caller: "agent", arguments: {}, result: null, error: null, isError: false, tainted: false, startedAt: at(ms), durationMs: 1, inputTokens, outputTokens });
  await call("a", 2, 100, 10);
  await call("b", 3, 100, 10);
  await call("c", 4, 180, 12);
  await sink.nodeEnd({ runId, nodeRunId: `${runId}-agent`, status: "completed", outputs: {}, error: null, turns: 3, endedAt: at(9) });
  await sink.runEnd({ runId, status: "completed", outputs: {}, error: null, endedAt: at(10) });
}

describe("readRunTotals", () => {
  it("counts what runTotals counts from the whole trace, for many runs at once", async () => {
    await recordRun("r1");
    await recordRun("r2");
    const totals = await readRunTotals(database.client, ["r1", "r2", "none"]);
    expect(totals.get("r1")).toEqual({ turns: 3, toolCalls: 3, inputTokens: 280, outputTokens: 22, costUsd: null });
    const { durationMs: _durationMs, ...fromTrace } = runTotals((await readWholeRunTrace(database.client, "r2"))!);
    expect(totals.get("r2")).toEqual(fromTrace);
    expect(totals.get("none")).toEqual({ turns: 0, toolCalls: 0, inputTokens: null, outputTokens: null, costUsd: null });
  });

  it("a run with journalled turn rows counts turns, tokens and cost from them", async () => {
    const sql = sqliteDatabase(database.url);
    try {
      const runId = await recordJournalledRun(sql, [{ input: 100, output: 10, costUsd: 0.5 }, { input: 200, output: 20, costUsd: 0.25 }]);
      const totals = await readRunTotals(database.client, [runId]);
      expect(totals.get(runId)).toEqual({ turns: 2, toolCalls: 2, inputTokens: 300, outputTokens: 30, costUsd: 0.75 });
      expect(await readRunTotals(database.client, [])).toEqual(new Map());
    } finally {
      await sql.close();
    }
  });
});

interface TurnUsage {
  input: number | null;
  output: number | null;
  costUsd: number | null;
}

/**
 * A run written as the engine writes it, through the journal: two node runs
 * of an agent, each turn asking for one call (the last one answers), so
 * the Run row's totals are kept by the writer itself.
 */
async function recordJournalledRun(sql: SqlDatabase, turns: readonly TurnUsage[]): Promise<string> {
  const runId = randomUUID();
  await sql.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', '{}', 'running', '{}', ?, 0)`, [runId, new Date(at(0))]);
  const journal = await DatabaseRunJournal.open(sql, runId);
  await journal.runStart({ runId, workflowId: null, input: {}, startedAt: at(0) });
  const nodeRuns = [`${runId}-a`, `${runId}-b`];
  for (const [index, nodeRunId] of nodeRuns.entries()) await journal.nodeStart({ runId, nodeRunId, nodeId: `agent${index}`, nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at(1 + index) });
  for (const [index, usage] of turns.entries()) {
    const nodeRunId = nodeRuns[index % 2];
    const key = `agent${index % 2}#1/t${index + 1}`;
    const row = { id: `${runId}-turn-${index}`, nodeRunId, nodeId: `agent${index % 2}`, sequence: index, model: "m", provider: "p", text: "", toolCalls: [], inputTokens: usage.input, outputTokens: usage.output, costUsd: usage.costUsd, startedAt: at(10 + index * 3), durationMs: 1, callsBefore: 0, contextKey: null, sentResults: [] };
    const call = { id: `${runId}-call-${index}`, runId, nodeRunId, tool: "t", server: "s", caller: `agent${index % 2}`, arguments: { index }, result: { ok: index }, error: null, isError: false, tainted: false, startedAt: at(11 + index * 3), durationMs: 1, inputTokens: usage.input, outputTokens: usage.output, stepKey: `${key}/c0` };
    await journal.recordSteps([
      { step: { key, kind: "model-turn", value: { turn: { text: "", toolCalls: [] }, row } }, rows: { toolCalls: [], taint: [] }, recordedAt: new Date(at(10 + index * 3)), repeatable: true },
      { step: { key: `${key}/c0`, kind: "tool-call", value: { output: "ok", isError: false } }, rows: { toolCalls: [call], taint: [] }, recordedAt: new Date(at(12 + index * 3)), repeatable: true },
    ]);
  }
  for (const nodeRunId of nodeRuns) await journal.nodeEnd({ runId, nodeRunId, status: "completed", outputs: {}, error: null, turns: turns.length, endedAt: at(900) });
  await journal.runEnd({ runId, status: "completed", outputs: {}, error: null, endedAt: at(1000) });
  return runId;
}

/** The statements of the trace-aggregates migration that fill the columns from the rows already there. */
function backfillStatements(dialect: "sqlite" | "postgres"): string[] {
  const folder = dialect === "sqlite" ? path.join("prisma", "migrations", "20261209000100_trace_aggregates") : path.join("prisma", "postgres", "migrations", "20261202092501_trace_aggregates");
  const text = readFileSync(path.resolve(import.meta.dirname, "..", "..", folder, "migration.sql"), "utf8");
  return text
    .slice(text.indexOf("-- Backfill"))
    .split(/;\s*\n/)
    .map((statement) => statement.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);
}

const usages: TurnUsage[][] = [
  [{ input: 100, output: 10, costUsd: 0.5 }, { input: 200, output: 20, costUsd: 0.25 }, { input: 7, output: 3, costUsd: 0.125 }],
  [{ input: 100, output: null, costUsd: 0.5 }, { input: null, output: null, costUsd: null }, { input: 5, output: 1, costUsd: 0.001 }],
  [{ input: null, output: null, costUsd: null }],
];

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`the Run row's totals on ${dialect === "sqlite" ? "SQLite" : "Postgres"}`, () => {
    let sql: SqlDatabase | undefined;
    let client: PrismaClient | undefined;
    beforeAll(() => {
      if (dialect === "postgres" && "skipped" in postgres) return;
      const url = dialect === "sqlite" ? database.url : (postgres as TestPostgres).url;
      sql = dialect === "sqlite" ? sqliteDatabase(url) : postgresDatabase(url);
      client = dialect === "sqlite" ? database.client : createPrismaClient(url);
    });
    afterAll(async () => {
      await sql?.close();
      if (dialect === "postgres") await client?.$disconnect();
    });

    /** What parsing every turn of the run gives (lib/trace/run-totals.ts over the whole trace). */
    const parsed = async (runId: string) => {
      const { durationMs: _durationMs, ...totals } = runTotals((await readWholeRunTrace(client!, runId))!);
      return totals;
    };
    const expectSame = (kept: Awaited<ReturnType<typeof parsed>> | undefined, fromTurns: Awaited<ReturnType<typeof parsed>>) => {
      const { costUsd, ...rest } = kept!;
      const { costUsd: parsedCost, ...parsedRest } = fromTurns;
      expect(rest).toEqual(parsedRest);
      if (parsedCost === null) expect(costUsd).toBeNull();
      else expect(costUsd).toBeCloseTo(parsedCost, 12);
    };

    it("the journal keeps them equal to what parsing the turns gives", async (context) => {
      if (!sql) return context.skip();
      for (const turns of usages) {
        const runId = await recordJournalledRun(sql, turns);
        expectSame((await readRunTotals(client!, [runId])).get(runId), await parsed(runId));
      }
    });

    it("the turns' places come joined by the database, in the tree's order, whole or within a range of writes", async (context) => {
      if (!sql) return context.skip();
      const runId = await recordJournalledRun(sql, usages[0]);
      // Node run a took turns 1 and 3 (one call of its own written before the second), b took turn 2.
      const places = { [`${runId}-a`]: [0, 1], [`${runId}-b`]: [0] };
      expect(await readTurnPlaces(client!, runId)).toEqual(places);
      expect(await readTurnPlaces(client!, runId, { after: 0, upTo: 1000 })).toEqual(places);
      expect(await readTurnPlaces(client!, runId, { after: 1000 })).toEqual({});
    });

    it("the migration fills them, and each turn's place, for the runs written before it", async (context) => {
      if (!sql) return context.skip();
      const runIds = [];
      for (const turns of usages) runIds.push(await recordJournalledRun(sql, turns));
      const kept = await readRunTotals(client!, runIds);
      const places = await sql.query(`SELECT "key", "turnNodeRunId", "turnStartedAt", "turnCallsBefore", "turnSequence" FROM "RunStep" WHERE "turnNodeRunId" IS NOT NULL ORDER BY "runId", "key"`);
      const callTotals = `SELECT * FROM "RunCallTotal" ORDER BY "runId", "nodeRunId", "tool"`;
      const counted = await sql.query(callTotals);
      const longest = await sql.query(`SELECT "id", "longestCallMs" FROM "Run" ORDER BY "id"`);
      // As a database of the version before had them: no totals, no turn columns.
      await sql.execute(`UPDATE "Run" SET "callCount" = 0, "turnCount" = 0, "turnInputTokens" = NULL, "turnOutputTokens" = NULL, "turnCostUsd" = 0, "turnsWithoutCost" = 0, "longestCallMs" = 0`);
      await sql.execute(`DELETE FROM "RunCallTotal"`);
      await sql.execute(`UPDATE "RunStep" SET "turnNodeRunId" = NULL, "turnStartedAt" = NULL, "turnCallsBefore" = NULL, "turnSequence" = NULL`);
      for (const statement of backfillStatements(dialect)) await sql.execute(statement);
      for (const runId of runIds) {
        expect((await readRunTotals(client!, [runId])).get(runId)).toEqual(kept.get(runId));
        expectSame(kept.get(runId), await parsed(runId));
      }
      const filled = await sql.query(`SELECT "key", "turnNodeRunId", "turnStartedAt", "turnCallsBefore", "turnSequence" FROM "RunStep" WHERE "turnNodeRunId" IS NOT NULL ORDER BY "runId", "key"`);
      const comparable = (rows: Array<Record<string, unknown>>) => rows.map((row) => ({ ...row, turnStartedAt: new Date(String(row.turnStartedAt instanceof Date ? row.turnStartedAt.toISOString() : row.turnStartedAt)).toISOString() }));
      expect(comparable(filled)).toEqual(comparable(places));
      expect(await sql.query(callTotals)).toEqual(counted);
      expect(counted.length).toBeGreaterThan(0);
      expect(await sql.query(`SELECT "id", "longestCallMs" FROM "Run" ORDER BY "id"`)).toEqual(longest);
    });
  });
}
