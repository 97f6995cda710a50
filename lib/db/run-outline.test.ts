import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../testing/ai/scripted-model.fixture";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { chainDocument, defaultServers, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { runWorkflow } from "../engine";
import { parseWorkflow } from "../graph";
import { InMemoryMcpToolResolver } from "../mcp/in-memory-tool-resolver";
import { createLocalEnvironment } from "../runs/local-environment";
import { createPrismaClient, type PrismaClient } from "./create-client";
import { createTestPostgres, type TestPostgres } from "./postgres/test-postgres";
import { DatabaseRunJournal } from "./run-journal-store";
import { readRunOutline } from "./run-outline";
import { postgresDatabase } from "./sql/postgres-database";
import type { SqlDatabase } from "./sql/sql-database";
import { sqliteDatabase } from "./sql/sqlite-database";
import { readWholeRunTrace } from "./whole-run-trace";

let database: TemporaryDatabase;
let postgres: TestPostgres | { skipped: string };
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  nodes = await writeToolLayerNodes();
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
}, 60_000);

afterAll(async () => {
  await database?.dispose();
  await nodes?.remove();
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

/** A run of one agent: two searches in one turn, one more in the next, then an answer. */
async function recordRun(db: SqlDatabase): Promise<string> {
  const parsed = parseWorkflow(chainDocument([{ id: "researcher", type: "plain-agent", tools: [{ type: "mcp", serverId: "web-search", toolNames: ["search"] }], approvals: { "*": "allow" } }]));
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  const model = scriptedModel([{ toolCalls: [{ name: "search", arguments: { query: "a" } }, { name: "search", arguments: { query: "b" } }] }, { toolCalls: [{ name: "search", arguments: { query: "c" } }] }, { text: "done" }]);
  const resolver = new InMemoryMcpToolResolver(defaultServers);
  const runId = randomUUID();
  await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', '{}', 'running', '{}', ?, 0)`, [runId, new Date()]);
  const journal = await DatabaseRunJournal.open(db, runId);
  try {
    const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => model, mcpTools: resolver } });
    expect((await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink: journal, journal, env })).status).toBe("completed");
  } finally {
    await resolver.close();
  }
  return runId;
}

describe.each(["sqlite", "postgres"] as const)("a run's outline and its turns' rows (%s)", (dialect) => {
  it("the outline is the whole trace's end, node runs and calls in order; a turn's row, stored without what its entry holds, reads whole", async (context) => {
    if (dialect === "postgres" && "skipped" in postgres) return context.skip();
    const url = dialect === "sqlite" ? database.url : (postgres as TestPostgres).url;
    const db = dialect === "sqlite" ? sqliteDatabase(url) : postgresDatabase(url);
    const prisma: PrismaClient = dialect === "sqlite" ? database.client : createPrismaClient(url);
    try {
      const runId = await recordRun(db);
      const [outline, whole] = await Promise.all([readRunOutline(prisma, runId), readWholeRunTrace(prisma, runId)]);
      if (!outline || !whole) throw new Error("the run cannot be read");
      expect(outline.run).toEqual({ status: whole.run.status, outputs: whole.run.outputs, error: whole.run.error });
      expect(outline.toolCalls).toEqual(whole.toolCalls.map((call) => ({ nodeRunId: call.nodeRunId, tool: call.tool, server: call.server, arguments: call.arguments, error: call.error, stepKey: call.stepKey })));
      expect(outline.toolCalls.map((call) => call.stepKey)).toEqual(["researcher#1/t1/c0", "researcher#1/t1/c1", "researcher#1/t2/c0"]);
      expect(new Set(outline.nodeRuns.map((nodeRun) => nodeRun.id))).toEqual(new Set(whole.nodeRuns.map((nodeRun) => nodeRun.id)));
      expect(await readRunOutline(prisma, randomUUID())).toBeNull();

      // A status another version wrote reads as failed, naming it, in the outline as in the whole trace.
      await db.execute(`UPDATE "Run" SET "status" = 'archived', "error" = 'kept' WHERE "id" = ?`, [runId]);
      const unknown = { status: "failed", error: 'recorded with the unknown status "archived": kept' };
      expect((await readRunOutline(prisma, runId))?.run).toMatchObject(unknown);
      expect((await readWholeRunTrace(prisma, runId))?.run).toMatchObject(unknown);

      // The stored row leaves out the answer's tool calls and the results sent; the trace reads them back from the entry.
      const [stored] = await db.query<{ value: string }>(`SELECT "value" FROM "RunStep" WHERE "runId" = ? AND "key" = ?`, [runId, "researcher#1/t2"]);
      const value = JSON.parse(stored.value) as { row: Record<string, unknown>; turn: { toolCalls: unknown[] } };
      expect(value.row).not.toHaveProperty("toolCalls");
      expect(value.row).not.toHaveProperty("sentResults");
      const turn = whole.modelTurns?.find((candidate) => candidate.sequence === 2);
      expect(turn?.toolCalls).toEqual(value.turn.toolCalls);
      expect((turn as { sentResults?: Array<{ name: string }> } | undefined)?.sentResults?.map((result) => result.name)).toEqual(["search", "search"]);
    } finally {
      await db.close();
      if (dialect === "postgres") await prisma.$disconnect();
    }
  });
});
