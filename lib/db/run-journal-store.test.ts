import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { runWorkflow } from "../engine";
import { createLocalEnvironment } from "../runs/local-environment";
import { chainDocument, defaultServers, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../graph";
import { InMemoryMcpToolResolver } from "../mcp/in-memory-tool-resolver";
import { CustomToolRegistry } from "../tools/custom-tool-registry";
import { defineTool } from "../tools/define-tool";
import { z } from "zod";
import { DatabaseRunQueue } from "./database-run-queue";
import { createTestPostgres, type TestPostgres } from "./postgres/test-postgres";
import { DatabaseRunJournal, RunTakenOverError } from "./run-journal-store";
import { postgresDatabase } from "./sql/postgres-database";
import { sqliteDatabase } from "./sql/sqlite-database";
import type { SqlDatabase, SqlStatement } from "./sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let sqlite: SqlDatabase;
let postgres: TestPostgres | { skipped: string };
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  sqlite = sqliteDatabase(database.url);
  nodes = await writeToolLayerNodes();
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
}, 60_000);

afterAll(async () => {
  await sqlite?.close();
  await database?.dispose();
  await nodes?.remove();
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

/** TEST DOUBLE: the database, keeping every transaction the journal asked for. */
function recording(db: SqlDatabase): SqlDatabase & { transactions: SqlStatement[][] } {
  const transactions: SqlStatement[][] = [];
  return { ...db, dialect: db.dialect, transactions, query: db.query.bind(db), execute: db.execute.bind(db), close: db.close.bind(db), transaction: (list, options) => (transactions.push([...list]), db.transaction(list, options)) };
}

async function insertRun(db: SqlDatabase, status: string): Promise<string> {
  const runId = randomUUID();
  await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', '{}', ?, '{}', ?, 0)`, [runId, status, new Date()]);
  return runId;
}

const toolCallRow = (runId: string, key: string) => ({
  id: randomUUID(), runId, nodeRunId: null, tool: "charge", server: "shop", caller: "agent", arguments: {}, result: "ok", error: null,
  isError: false, tainted: false, startedAt: new Date().toISOString(), durationMs: 1, inputTokens: null, outputTokens: null, stepKey: key,
});

describe("the journal's write path", () => {
  it("Prisma's SQLite connections run in WAL with synchronous=NORMAL, like the journal's", async () => {
    const [mode] = await database.client.$queryRawUnsafe<Array<{ journal_mode: string }>>("PRAGMA journal_mode");
    const [sync] = await database.client.$queryRawUnsafe<Array<{ synchronous: bigint | number }>>("PRAGMA synchronous");
    expect(mode.journal_mode).toBe("wal");
    expect(Number(sync.synchronous)).toBe(1);
    expect((await sqlite.query<{ synchronous: number }>("PRAGMA synchronous"))[0].synchronous).toBe(1);
  });

  it("writes each step with its rows in one transaction: a call's ToolCall and TaintRecord rows commit with its journal entry, nothing read back", async () => {
    const document = chainDocument([{ id: "researcher", type: "plain-agent", tools: [{ type: "mcp", serverId: "web-search", toolNames: ["search"] }, { type: "builtin", name: "save_to_memory" }], approvals: { "*": "allow" } }]);
    const parsed = parseWorkflow(document);
    if (!parsed.ok) throw new Error(parsed.problems[0].message);
    const model = scriptedModel([
      { toolCalls: [{ name: "search", arguments: { query: "a" } }, { name: "search", arguments: { query: "b" } }] },
      (request) => ({ toolCalls: [{ name: "save_to_memory", arguments: { key: "findings", value: request.results[0].output } }] }),
      { text: "done" },
    ]);
    const resolver = new InMemoryMcpToolResolver(defaultServers);
    const db = recording(sqlite);
    const runId = await insertRun(db, "running");
    const journal = await DatabaseRunJournal.open(db, runId);
    try {
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => model, mcpTools: resolver } });
      expect((await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink: journal, journal, env })).status).toBe("completed");
    } finally {
      await resolver.close();
    }
    const tables = (list: SqlStatement[]) => list.map(([sql]) => /^\s*(?:INSERT INTO|UPDATE)\s+"(\w+)"/.exec(sql)?.[1]);
    const calls = db.transactions.filter((list) => tables(list).includes("ToolCall"));
    // Rows per table in a transaction: a batch writes each table's rows in multi-row inserts (one tuple per row).
    const rowsIn = (list: SqlStatement[], table: string) => list.filter((statement) => tables([statement])[0] === table).reduce((sum, [sql]) => sum + (sql.match(/\(\?/g) ?? []).length, 0);
    // Two searches and one memory write: each call's row commits with its taint entry, in the same transaction (steps safe to repeat may share one with the model turns around them).
    expect(calls.reduce((sum, list) => sum + rowsIn(list, "ToolCall"), 0)).toBe(3);
    for (const list of calls) expect(rowsIn(list, "TaintRecord"), "a call's taint entry commits with its row").toBe(rowsIn(list, "ToolCall"));
    // No other transaction writes a taint entry of a call: only the outputs' entries, at the node's end.
    const [{ calls: written }] = await sqlite.query<{ calls: number }>(`SELECT COUNT(*) AS "calls" FROM "ToolCall" WHERE "runId" = ?`, [runId]);
    expect(written).toBe(3);
    expect(db.transactions.flat().some(([sql]) => /RETURNING/i.test(sql))).toBe(false);
  });
});

describe.each(["sqlite", "postgres"] as const)("lease fencing (%s)", (dialect) => {
  it("a worker whose run was taken over cannot write its journal any more; the new holder can", async (context) => {
    if (dialect === "postgres" && "skipped" in postgres) return context.skip();
    const db = dialect === "sqlite" ? sqlite : postgresDatabase((postgres as TestPostgres).url);
    try {
      let now = new Date();
      const queue = new DatabaseRunQueue(db, { leaseMs: 1000, heartbeatMs: 100, pollMs: 50 }, null, () => now);
      const runId = await insertRun(db, "queued");
      const [first] = (await queue.claim("worker-a", 10)).filter((claim) => claim.runId === runId);
      const stale = await DatabaseRunJournal.open(db, runId, first);
      await stale.record({ key: "agent#1/t1/c0", kind: "tool-call", value: { outcome: { output: "1", isError: false } } }, { toolCalls: [toolCallRow(runId, "agent#1/t1/c0")], taint: [] });

      now = new Date(now.getTime() + 5000); // worker-a stopped renewing its lease
      const [second] = (await queue.claim("worker-b", 10)).filter((claim) => claim.runId === runId);
      expect(second).toEqual({ runId, workerId: "worker-b", resumeCount: 1 });

      const refused = stale.record({ key: "agent#1/t1/c1", kind: "tool-call", value: { outcome: { output: "2", isError: false } } }, { toolCalls: [toolCallRow(runId, "agent#1/t1/c1")], taint: [] });
      await expect(refused).rejects.toBeInstanceOf(RunTakenOverError);
      await expect(refused).rejects.toThrow(/another worker took the run over/);
      await expect(stale.runEnd({ runId, status: "completed", outputs: {}, error: null, endedAt: new Date().toISOString() })).rejects.toBeInstanceOf(RunTakenOverError);

      const current = await DatabaseRunJournal.open(db, runId, second);
      await current.record({ key: "agent#1/t1/c1", kind: "tool-call", value: { outcome: { output: "3", isError: false } } }, { toolCalls: [toolCallRow(runId, "agent#1/t1/c1")], taint: [] });
      const rows = await db.query<{ stepKey: string; outcome: string; attempt: number }>(`SELECT "stepKey", "outcome", "attempt" FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`, [runId]);
      expect(rows.map((row) => [row.stepKey, JSON.parse(row.outcome).outcome.output, Number(row.attempt)])).toEqual([["agent#1/t1/c0", "1", 0], ["agent#1/t1/c1", "3", 1]]);
      const [run] = await db.query<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [runId]);
      expect(run.status).toBe("running");
    } finally {
      if (db !== sqlite) await db.close();
    }
  });
});

describe.each(["sqlite", "postgres"] as const)("a step is committed before the next one begins (%s)", (dialect) => {
  it("a call not safe to repeat finds, from another connection, every call and model turn before it committed (calls safe to repeat may commit behind the run)", async (context) => {
    if (dialect === "postgres" && "skipped" in postgres) return context.skip();
    const url = dialect === "sqlite" ? database.url : (postgres as TestPostgres).url;
    const db = dialect === "sqlite" ? sqlite : postgresDatabase(url);
    // Another connection, as another process would read the database: it sees only what was committed.
    const reader = dialect === "sqlite" ? sqliteDatabase(url) : postgresDatabase(url);
    try {
      const queue = new DatabaseRunQueue(db, { leaseMs: 60_000, heartbeatMs: 100, pollMs: 50 });
      const runId = await insertRun(db, "queued");
      const [claim] = (await queue.claim("worker-a", 10)).filter((candidate) => candidate.runId === runId);
      const journal = await DatabaseRunJournal.open(db, runId, claim);
      const seen: Array<{ calls: number; turns: number }> = [];
      const look = defineTool({
        name: "look",
        description: "Counts what the run has committed.",
        parameters: z.object({ call: z.number() }),
        execute: async () => {
          const [row] = await reader.query<{ calls: number | string; turns: number | string }>(
            `SELECT (SELECT COUNT(*) FROM "ToolCall" WHERE "runId" = ?) AS "calls", (SELECT COUNT(*) FROM "RunStep" WHERE "runId" = ? AND "kind" = 'model-turn') AS "turns"`,
            [runId, runId],
          );
          seen.push({ calls: Number(row.calls), turns: Number(row.turns) });
          return seen.at(-1);
        },
      });
      // Safe to repeat: its outcome may still be committing when the next step begins.
      const peek = defineTool({ name: "peek", description: "Reads nothing.", parameters: z.object({ call: z.number() }), idempotent: true, execute: ({ call }) => ({ peeked: call }) });
      const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: "look" }, { type: "custom", name: "peek" }] }]));
      if (!parsed.ok) throw new Error(parsed.problems[0].message);
      // Different arguments and results each time: the repeat guard stops a call (or a result) that comes back unchanged.
      const turn = (first: number) => ({ toolCalls: [first, first + 1, first + 2].map((call) => ({ name: "look", arguments: { call } })) });
      const peeks = (first: number) => ({ toolCalls: [first, first + 1].map((call) => ({ name: "peek", arguments: { call } })) });
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => scriptedModel([turn(1), turn(4), peeks(7), peeks(9), turn(11), { text: "done" }]), customTools: new CustomToolRegistry([look, peek]) } });
      const outcome = await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink: journal, journal, env });
      expect([outcome.status, outcome.error]).toEqual(["completed", null]);
      expect(seen).toEqual([
        { calls: 0, turns: 1 }, { calls: 1, turns: 1 }, { calls: 2, turns: 1 },
        { calls: 3, turns: 2 }, { calls: 4, turns: 2 }, { calls: 5, turns: 2 },
        // After four peeks in two turns, whose commits may have trailed: all of them are in before the next look begins.
        { calls: 10, turns: 5 }, { calls: 11, turns: 5 }, { calls: 12, turns: 5 },
      ]);
    } finally {
      await reader.close();
      if (db !== sqlite) await db.close();
    }
  });
});

describe.each(["sqlite", "postgres"] as const)("claims (%s)", (dialect) => {
  it("a claim takes at most its limit of queued runs, oldest first, and the next claim the next ones", async (context) => {
    if (dialect === "postgres" && "skipped" in postgres) return context.skip();
    // A database of its own: no run of another test is claimable here.
    const fresh = dialect === "sqlite" ? await createTemporaryDatabase() : await createTestPostgres();
    if ("skipped" in fresh) return context.skip();
    const db = dialect === "sqlite" ? sqliteDatabase(fresh.url) : postgresDatabase(fresh.url);
    try {
      const queue = new DatabaseRunQueue(db, { leaseMs: 60_000, heartbeatMs: 100, pollMs: 50 });
      const runIds: string[] = [];
      for (let index = 0; index < 12; index++) {
        const runId = randomUUID();
        await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', '{}', 'queued', '{}', ?, 0)`, [runId, new Date(Date.UTC(2026, 0, 1, 0, 0, index))]);
        runIds.push(runId);
      }
      const first = await queue.claim("worker-a", 1);
      expect(first.map((claim) => claim.runId)).toEqual([runIds[0]]);
      const next = await queue.claim("worker-b", 4);
      expect(next.map((claim) => claim.runId)).toEqual(runIds.slice(1, 5));
      const [{ held }] = await db.query<{ held: number | string }>(`SELECT COUNT(*) AS "held" FROM "Run" WHERE "status" = 'running'`);
      expect(Number(held)).toBe(5);
    } finally {
      await db.close();
      await fresh.dispose();
    }
  });
});
