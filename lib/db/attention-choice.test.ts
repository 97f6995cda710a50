import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAttentionChoice } from "./attention-choice";
import type { SqlDatabase } from "./sql/sql-database";
import { sqliteDatabase } from "./sql/sqlite-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

let database: TemporaryDatabase;
let db: SqlDatabase;
beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = sqliteDatabase(database.url);
});
afterAll(async () => {
  await db?.close();
  await database?.dispose();
});

/** A run stopped needs-attention on the charge of `clerk#1/t2/c0`, with `attention` as the worker wrote it. */
async function waitingRun(attention: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  await database.client.run.create({ data: { id, document: "{}", input: "{}", status: "needs-attention", attention: JSON.stringify({ key: "clerk#1/t2/c0", nodeId: "clerk", nodeRunId: "n", tool: "charge", server: "shop", arguments: {}, message: "m", ...attention }) } });
  return id;
}
const choices = async (runId: string) => (await database.client.runStep.findMany({ where: { runId, kind: "choice" } })).map((step) => step.key);

describe("a person's choice for a run that needs attention", () => {
  it("goes under the key of the attempt that stopped, and queues the run again", async () => {
    const runId = await waitingRun({ choiceKey: "clerk#1/t2/c0/choice/2" });
    expect(await recordAttentionChoice(db, runId, { action: "run-again" }, new Date(), "clerk#1/t2/c0/choice/2")).toEqual({ ok: true });
    expect(await choices(runId)).toEqual(["clerk#1/t2/c0/choice/2"]);
    expect((await database.client.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("queued");
  });

  it("is refused, changing nothing, when the page showed an earlier attempt than the one now waiting", async () => {
    const runId = await waitingRun({ choiceKey: "clerk#1/t2/c0/choice/2" });
    expect(await recordAttentionChoice(db, runId, { action: "run-again" }, new Date(), "clerk#1/t2/c0/choice")).toMatchObject({ ok: false, error: expect.stringContaining("tried again and stopped again") });
    expect(await choices(runId)).toEqual([]);
  });

  it("is refused for a call that waits for an approval or for an answer: no choice is left to answer a later crash", async () => {
    const approval = await waitingRun({ approval: { policy: "ask" } });
    expect(await recordAttentionChoice(db, approval, { action: "run-again" })).toMatchObject({ ok: false, error: expect.stringContaining("Approvals page") });
    const question = await waitingRun({ question: { key: "clerk#1/t2/c0/elicit/0" } });
    expect(await recordAttentionChoice(db, question, { action: "run-again" })).toMatchObject({ ok: false, error: expect.stringContaining("Questions page") });
    expect([...(await choices(approval)), ...(await choices(question))]).toEqual([]);
  });
});
