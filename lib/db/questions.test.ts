import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stableId } from "../run-model";
import type { AttentionRequest } from "../trace/run-trace";
import { listWaitingQuestions, recordQuestionAnswer } from "./questions";
import { openSqlDatabase } from "./sql/open-database";
import type { SqlDatabase } from "./sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let db: SqlDatabase;
beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = openSqlDatabase(database.url);
}, 60_000);
afterAll(async () => {
  await db.close();
  await database.dispose();
}, 60_000);

const callKey = "desk#1/t1/c0";
const attention: AttentionRequest = {
  key: callKey,
  nodeId: "desk",
  nodeRunId: "nr",
  tool: "book_table",
  server: "questions",
  arguments: {},
  message: "questions/book_table asks a question: How many guests?",
  question: {
    key: `${callKey}/elicit/0`,
    question: { mode: "form", message: "How many guests?", requestedSchema: { type: "object", properties: { guests: { type: "integer", title: "Guests", minimum: 1 }, email: { type: "string", format: "email", title: "Email" } }, required: ["guests"] } },
    since: "2026-01-01T00:00:00.000Z",
    deadline: "2026-01-02T00:00:00.000Z",
  },
};

async function waitingRun(id: string): Promise<string> {
  await database.client.run.create({ data: { id, document: "{}", input: "{}", status: "needs-attention", attention: JSON.stringify(attention) } });
  await database.client.runStep.create({ data: { runId: id, key: `${callKey}/elicit/0/waiting`, kind: "waiting", value: JSON.stringify(attention.question), attempt: 0, recordedAt: new Date() } });
  return stableId(id, `${callKey}/elicit/0`);
}

describe("answering a tool's question", () => {
  it("lists the waiting question; a valid answer is journalled and the run queued again; a second answer changes nothing and says why", async () => {
    const questionId = await waitingRun("run-a");
    expect((await listWaitingQuestions(db)).map((question) => question.questionId)).toContain(questionId);
    expect(await recordQuestionAnswer(db, questionId, { action: "accept", values: { guests: "4" }, by: "ana@example.com" }, new Date("2026-01-01T01:00:00Z"))).toEqual({ ok: true, runId: "run-a" });
    const step = await database.client.runStep.findFirst({ where: { runId: "run-a", key: `${callKey}/elicit/0` } });
    expect(JSON.parse(step!.value)).toEqual({ answer: { action: "accept", content: { guests: 4 } }, by: "ana@example.com", at: "2026-01-01T01:00:00.000Z" });
    expect((await database.client.run.findUnique({ where: { id: "run-a" } }))?.status).toBe("queued");
    const again = await recordQuestionAnswer(db, questionId, { action: "decline", by: "bo@example.com" });
    expect(again).toEqual({ ok: false, error: "This question was already answered (accept) by ana@example.com at 2026-01-01T01:00:00.000Z; the run is queued. Nothing was changed." });
  });

  it("refuses values that do not fit the schema, field by field, and records nothing", async () => {
    const questionId = await waitingRun("run-b");
    expect(await recordQuestionAnswer(db, questionId, { action: "accept", values: { guests: "" }, by: "ana@example.com" })).toEqual({ ok: false, error: "Some answers need another look.", fields: { guests: "Guests is required." } });
    expect(await recordQuestionAnswer(db, questionId, { action: "accept", values: { guests: "2", email: "not-an-address" }, by: "ana@example.com" })).toMatchObject({ ok: false, error: expect.stringContaining('must match format "email"') });
    expect(await database.client.runStep.findFirst({ where: { runId: "run-b", key: `${callKey}/elicit/0` } })).toBeNull();
    expect(await recordQuestionAnswer(db, questionId, { action: "decline", by: "ana@example.com" })).toEqual({ ok: true, runId: "run-b" });
  });

  it("a question whose run was cancelled cannot be answered", async () => {
    const questionId = await waitingRun("run-c");
    await database.client.run.update({ where: { id: "run-c" }, data: { status: "cancelled", attention: null } });
    expect(await recordQuestionAnswer(db, questionId, { action: "cancel", by: "ana@example.com" })).toEqual({ ok: false, error: "This question's run is cancelled, so there is nothing to answer. Nothing was changed." });
  });
});
