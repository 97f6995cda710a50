import { keyOfWaiting, questionWaitingPattern, stableId } from "../run-model";
import type { RecordedAnswer } from "../engine";
import { checkArguments } from "../manifest";
import { contentFromForm, type FormValues, questionFields } from "../questions/question-fields";
import type { QuestionAnswer } from "../run-model/tool-question";
import type { AttentionRequest } from "../trace";
import { toJsonText } from "./json-text";
import type { SqlDatabase } from "./sql/sql-database";
import { requeueWaitingRun } from "./queued-runs";

/** A question a tool asked during a run, waiting for a person (the Questions section lists these). */
export interface WaitingQuestion {
  /** The id a person answers by. */
  questionId: string;
  runId: string;
  workflowId: string | null;
  request: AttentionRequest & { question: NonNullable<AttentionRequest["question"]> };
}

/** What a person answers: the form's values (accept), or decline, or cancel; `by` is the answering actor (checked by the caller, in app/). */
export type AnswerInput = { action: "accept"; values?: FormValues; by: string } | { action: "decline" | "cancel"; by: string };

export type AnswerResult = { ok: true; runId: string } | { ok: false; error: string; fields?: Record<string, string> };

/** Every question waiting for an answer across runs, oldest first. */
export async function listWaitingQuestions(db: SqlDatabase): Promise<WaitingQuestion[]> {
  const rows = await db.query<{ id: string; workflowId: string | null; attention: string | null }>(`SELECT "id", "workflowId", "attention" FROM "Run" WHERE "status" = 'needs-attention' AND "attention" IS NOT NULL`);
  const waiting: WaitingQuestion[] = [];
  for (const row of rows) {
    const request = JSON.parse(row.attention!) as AttentionRequest;
    if (!request.question) continue;
    waiting.push({ questionId: stableId(row.id, request.question.key), runId: row.id, workflowId: row.workflowId, request: request as WaitingQuestion["request"] });
  }
  return waiting.sort((a, b) => a.request.question.since.localeCompare(b.request.question.since));
}

/**
 * Records a person's answer to a waiting question in its run's journal
 * (under the question's key) and queues the run again: the call is made
 * again and the tool's question is answered from the journal. Form values
 * must fit the requested schema; a question no longer waiting (answered,
 * its run cancelled or ended) is refused with a message, and nothing changes.
 */
export async function recordQuestionAnswer(db: SqlDatabase, questionId: string, input: AnswerInput, now: Date = new Date()): Promise<AnswerResult> {
  const waiting = (await listWaitingQuestions(db)).find((candidate) => candidate.questionId === questionId);
  if (!waiting) return { ok: false, error: await notWaiting(db, questionId) };
  const answer = answerOf(waiting, input);
  if (!answer.ok) return answer;
  const recorded: RecordedAnswer = { answer: answer.answer, by: input.by, at: now.toISOString() };
  // The answer is also the go-ahead for the attempt of the call that stopped to ask: it is made again (a crash during that one waits for a person).
  const goAhead = waiting.request.choiceKey;
  await db.transaction([
    [`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'decision', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [waiting.runId, waiting.request.question.key, toJsonText(recorded), now]],
    ...(goAhead ? ([[`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'choice', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [waiting.runId, goAhead, toJsonText({ action: "run-again", answered: waiting.request.question.key, at: now.toISOString() }), now]]] as const) : []),
    requeueWaitingRun(waiting.runId),
  ]);
  return { ok: true, runId: waiting.runId };
}

function answerOf(waiting: WaitingQuestion, input: AnswerInput): { ok: true; answer: QuestionAnswer } | Extract<AnswerResult, { ok: false }> {
  if (input.action !== "accept") return { ok: true, answer: { action: input.action } };
  const { question } = waiting.request.question;
  if (question.mode === "url") return { ok: true, answer: { action: "accept" } };
  const read = contentFromForm(questionFields(question.requestedSchema), input.values ?? {});
  if (!read.ok) return { ok: false, error: "Some answers need another look.", fields: read.errors };
  const checked = checkArguments(question.requestedSchema, read.content);
  if (!checked.ok) return { ok: false, error: `The answer does not fit what ${waiting.request.tool} asked for: ${checked.message}` };
  return { ok: true, answer: { action: "accept", content: read.content } };
}

/** Why a question id is not waiting: answered already, its run ended or was cancelled, or no such question. */
async function notWaiting(db: SqlDatabase, questionId: string): Promise<string> {
  const asked = await db.query<{ runId: string; key: string }>(`SELECT "runId", "key" FROM "RunStep" WHERE "kind" = 'waiting' AND "key" LIKE ?`, [questionWaitingPattern]);
  const match = asked.find((row) => stableId(row.runId, keyOfWaiting(row.key) ?? "") === questionId);
  if (!match) return `There is no question "${questionId}" waiting for an answer.`;
  const questionKey = keyOfWaiting(match.key) ?? match.key;
  const [answered] = await db.query<{ value: string }>(`SELECT "value" FROM "RunStep" WHERE "runId" = ? AND "key" = ?`, [match.runId, questionKey]);
  const [run] = await db.query<{ status: string }>(`SELECT "status" FROM "Run" WHERE "id" = ?`, [match.runId]);
  if (answered) {
    const recorded = JSON.parse(answered.value) as RecordedAnswer;
    return `This question was already answered (${recorded.answer.action}) by ${recorded.by} at ${recorded.at}; the run is ${run?.status ?? "gone"}. Nothing was changed.`;
  }
  return `This question's run is ${run?.status ?? "gone"}, so there is nothing to answer. Nothing was changed.`;
}
