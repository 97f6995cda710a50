import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, type ScriptedTurn } from "../../testing/ai/scripted-model.fixture";
import { runWorkflow } from "../engine";
import { createLocalEnvironment } from "../runs/local-environment";
import { progressWorkflow, writeProgressAgentNodes } from "../../testing/engine/progress-agent.fixture";
import { chainDocument, writeToolLayerNodes } from "../../testing/engine/tool-layers.fixture";
import { parseWorkflow, type Workflow, type WorkflowInput } from "../graph";
import { CustomToolRegistry } from "../tools/custom-tool-registry";
import { defineTool } from "../tools/define-tool";
import { DatabaseRunJournal } from "./run-journal-store";
import type { SqlDatabase } from "./sql/sql-database";
import { sqliteDatabase } from "./sql/sqlite-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

/**
 * Steps safe to repeat commit behind the run (lib/engine/journal/step-recorder.ts).
 * These runs lose their journal's batches (the database goes away) at the
 * worst moment, then resume with a model that answers differently, and
 * check that nothing happened outside that the durable journal does not know.
 */
let database: TemporaryDatabase;
let base: SqlDatabase;
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => {
  database = await createTemporaryDatabase();
  base = sqliteDatabase(database.url);
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await base?.close();
  await database?.dispose();
  await nodes?.remove();
});

/** TEST DOUBLE: the database, whose journal writes fail (a lost connection) while `failing` says so, once `until` holds or 1 s passed. */
function flakyDatabase(state: { failing: boolean; until: () => boolean }): SqlDatabase {
  return {
    dialect: base.dialect,
    query: base.query.bind(base),
    execute: base.execute.bind(base),
    close: async () => undefined,
    async transaction(list, options) {
      if (state.failing && list.some(([sql]) => /INSERT INTO "(RunStep|ToolCall)"/.test(sql))) {
        for (let waited = 0; waited < 1000 && !state.until(); waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error("connection lost");
      }
      return base.transaction(list, options);
    },
  };
}

async function newRun(): Promise<string> {
  const runId = randomUUID();
  await base.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, '{}', '{}', 'running', '{}', ?, 0)`, [runId, new Date()]);
  return runId;
}

describe("write-behind never lets an effect outrun what made it", () => {
  it("a call that is idempotent but changes something waits for the turn that asked for it: lost, the turn is asked again and only its call happens", async () => {
    const effects: string[] = [];
    // TEST DOUBLE: an idempotent write (a PUT of the ticket's status).
    const setStatus = defineTool({ name: "set_status", description: "Sets the ticket's status.", parameters: z.object({ status: z.string() }), idempotent: true, execute: ({ status }) => (effects.push(status), { ok: true }) });
    const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: "set_status" }] }]));
    if (!parsed.ok) throw new Error(parsed.problems[0].message);
    const state = { failing: true, until: () => effects.length > 0 };
    const db = flakyDatabase(state);
    const runId = await newRun();
    const run = async (script: ScriptedTurn[]) => {
      const journal = await DatabaseRunJournal.open(db, runId);
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => scriptedModel(script), customTools: new CustomToolRegistry([setStatus]) } });
      return runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink: journal, journal, env });
    };
    expect((await run([{ toolCalls: [{ name: "set_status", arguments: { status: "closed" } }] }, { text: "done" }])).status).toBe("interrupted");
    state.failing = false;
    // The model answers differently when asked again.
    expect((await run([{ toolCalls: [{ name: "set_status", arguments: { status: "escalated" } }] }, { text: "done" }])).status).toBe("completed");
    expect(effects).toEqual(["escalated"]);
    const rows = await base.query<{ arguments: string }>(`SELECT "arguments" FROM "ToolCall" WHERE "runId" = ?`, [runId]);
    expect(rows.map((row) => JSON.parse(row.arguments).status)).toEqual(["escalated"]);
  });

  it("a read-only call may run ahead of its turn's commit: lost, it is simply made again", async () => {
    const reads: number[] = [];
    const lookup = defineTool({ name: "lookup", description: "Reads an order.", parameters: z.object({ id: z.number() }), readOnly: true, idempotent: true, execute: ({ id }) => (reads.push(id), { id }) });
    const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: "lookup" }] }]));
    if (!parsed.ok) throw new Error(parsed.problems[0].message);
    const state = { failing: true, until: () => reads.length > 0 };
    const db = flakyDatabase(state);
    const runId = await newRun();
    const run = async (id: number) => {
      const journal = await DatabaseRunJournal.open(db, runId);
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => scriptedModel([{ toolCalls: [{ name: "lookup", arguments: { id } }] }, { text: "done" }]), customTools: new CustomToolRegistry([lookup]) } });
      return runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink: journal, journal, env });
    };
    expect((await run(1)).status).toBe("interrupted");
    state.failing = false;
    expect((await run(2)).status).toBe("completed");
    // The first read ran before its turn was durable (it changes nothing); the journal holds only the second.
    expect(reads).toEqual([1, 2]);
    const rows = await base.query<{ arguments: string }>(`SELECT "arguments" FROM "ToolCall" WHERE "runId" = ?`, [runId]);
    expect(rows.map((row) => JSON.parse(row.arguments).id)).toEqual([2]);
  });

  it("outputs an agent emits mid-run reach the next node only once the steps that made them are durable", async () => {
    const progress = await writeProgressAgentNodes();
    try {
      const nodesDir = progress.nodesDir;
      let webhookStarted = false;
      const state = { failing: true, until: () => webhookStarted };
      const flaky = flakyDatabase(state);
      const db: SqlDatabase = {
        ...flaky,
        async transaction(list, options) {
          await flaky.transaction(list, options);
          if (list.some(([sql, params]) => /INSERT INTO "NodeRun"/.test(sql) && params.includes("webhook"))) webhookStarted = true;
        },
      };
      const runId = await newRun();
      const run = async (script: ScriptedTurn[]) => {
        const journal = await DatabaseRunJournal.open(db, runId);
        const env = await createLocalEnvironment({ nodesDir, overrides: { models: () => scriptedModel(script), allowedPrivateOrigins: ["http://127.0.0.1:9"] } });
        return runWorkflow({ runId, workflowId: null, workflow: workflow(progressWorkflow("http://127.0.0.1:9")), input: { question: "q" }, sink: journal, journal, env });
      };
      // The agent's `progress` (put out after each conversion) is wired to a webhook; the batch holding the conversion is lost.
      expect((await run([{ toolCalls: [{ name: "convertUnits", arguments: { value: 1, from: "mile", to: "kilometre" } }] }, { text: "done" }])).status).toBe("interrupted");
      state.failing = false;
      // Asked again, the model converts nothing: no progress was ever emitted, so the webhook never ran.
      expect((await run([{ text: "done, no conversion needed" }])).status).toBe("completed");
      const rows = await base.query<{ nodeId: string }>(`SELECT "nodeId" FROM "NodeRun" WHERE "runId" = ?`, [runId]);
      expect(rows.map((row) => row.nodeId).sort()).toEqual(["agent", "end", "start"]);
    } finally {
      await progress.remove();
    }
  });
});

function workflow(input: WorkflowInput): Workflow {
  const parsed = parseWorkflow(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.workflow;
}
