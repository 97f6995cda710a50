import "server-only";
import { randomUUID } from "node:crypto";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { fromJsonText } from "./json-text";
import { isRunStatus, type RunStatus } from "../run-model";

/** A chat thread as the list and the chat page show it. */
export interface ChatThreadRecord {
  id: string;
  workflowId: string;
  ownerId: string;
  title: string;
  shared: boolean;
  /** `canvas`: the playground beside the canvas; `page`: the chat page or the API. */
  place: "canvas" | "page";
  createdAt: string;
  updatedAt: string;
}

/** One turn of a thread, read back from its run. */
export interface ChatTurnRecord {
  runId: string;
  turn: number;
  /** What the person said (the run's chat input). */
  message: string;
  /** The run's answer; empty while it runs or when it ended without one. */
  answer: string;
  status: RunStatus;
  error: string | null;
}

const threadColumns = { id: true, workflowId: true, ownerId: true, title: true, shared: true, place: true, createdAt: true, updatedAt: true } as const;

type ThreadRow = { id: string; workflowId: string; ownerId: string; title: string; shared: boolean; place: string; createdAt: Date; updatedAt: Date };

function toRecord(row: ThreadRow): ChatThreadRecord {
  return { ...row, place: row.place === "canvas" ? "canvas" : "page", createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** A new thread, titled after its first message. */
export async function createChatThread(input: { workflowId: string; ownerId: string; title: string; place: "canvas" | "page"; widgetId?: string }): Promise<ChatThreadRecord> {
  try {
    const title = input.title.replace(/\s+/g, " ").trim().slice(0, 60) || "New chat";
    return toRecord(await prisma().chatThread.create({ data: { id: randomUUID(), workflowId: input.workflowId, ownerId: input.ownerId, title, place: input.place, widgetId: input.widgetId ?? null }, select: threadColumns }));
  } catch (error) {
    throw toDatabaseError(error, "create a chat thread");
  }
}

/** The threads of a workflow a person may see (theirs, and those shared; only theirs with `ownOnly`: a widget's visitor), the latest first. */
export async function listChatThreads(workflowId: string, viewerId: string, place?: "canvas" | "page", ownOnly = false): Promise<ChatThreadRecord[]> {
  try {
    const rows = await prisma().chatThread.findMany({
      where: { workflowId, ...(ownOnly ? { ownerId: viewerId } : { OR: [{ ownerId: viewerId }, { shared: true }] }), ...(place ? { place } : {}) },
      select: threadColumns,
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      take: 200,
    });
    return rows.map(toRecord);
  } catch (error) {
    throw toDatabaseError(error, `list the chat threads of workflow "${workflowId}"`);
  }
}

/**
 * A thread of this workflow the person may see; null when there is none or it
 * is another person's and not shared (the routes answer 404 alike). With
 * `ownOnly` (a widget's visitor) a shared thread of someone else is null too.
 */
export async function readChatThread(workflowId: string, threadId: string, viewerId: string, ownOnly = false): Promise<ChatThreadRecord | null> {
  try {
    const row = await prisma().chatThread.findUnique({ where: { id: threadId } });
    if (!row || row.workflowId !== workflowId || (row.ownerId !== viewerId && (ownOnly || !row.shared))) return null;
    return toRecord(row);
  } catch (error) {
    throw toDatabaseError(error, `read chat thread "${threadId}"`);
  }
}

/** Renames or shares a thread; only its owner may (the caller checks). */
export async function updateChatThread(threadId: string, change: { title?: string; shared?: boolean }): Promise<ChatThreadRecord> {
  try {
    return toRecord(await prisma().chatThread.update({ where: { id: threadId }, data: change }));
  } catch (error) {
    throw toDatabaseError(error, `update chat thread "${threadId}"`);
  }
}

/** Marks a thread as just used (the list puts it first). */
export async function touchChatThread(threadId: string): Promise<void> {
  await prisma().chatThread.update({ where: { id: threadId }, data: { updatedAt: new Date() } }).catch(() => undefined);
}

/** Deletes a thread; its runs stay, with their traces, unlinked from it. */
/** The thread's turn not ended yet (queued, running, or waiting for a person), if any: a thread takes one turn at a time. */
export async function unfinishedChatTurn(threadId: string): Promise<{ runId: string; status: RunStatus } | null> {
  try {
    const run = await prisma().run.findFirst({ where: { threadId, status: { in: ["queued", "running", "needs-attention"] } }, select: { id: true, status: true }, orderBy: { threadTurn: "desc" } });
    return run && isRunStatus(run.status) ? { runId: run.id, status: run.status } : null;
  } catch (error) {
    throw toDatabaseError(error, `read the unfinished turn of chat thread "${threadId}"`);
  }
}

export async function deleteChatThread(threadId: string): Promise<void> {
  try {
    await prisma().$transaction([prisma().run.updateMany({ where: { threadId }, data: { threadId: null, threadTurn: null } }), prisma().chatThread.delete({ where: { id: threadId } })]);
  } catch (error) {
    throw toDatabaseError(error, `delete chat thread "${threadId}"`);
  }
}

/** A thread's turns, in order, read from their runs. */
export async function readChatTurns(threadId: string, chatField: (document: string) => string | null): Promise<ChatTurnRecord[]> {
  try {
    const rows = await prisma().run.findMany({
      where: { threadId },
      orderBy: { threadTurn: "asc" },
      select: { id: true, threadTurn: true, input: true, outputs: true, status: true, error: true, document: true },
    });
    return rows.map((row) => {
      const field = chatField(row.document);
      const input = (fromJsonText(row.input) ?? {}) as Record<string, unknown>;
      return {
        runId: row.id,
        turn: row.threadTurn ?? 0,
        message: field && typeof input[field] === "string" ? (input[field] as string) : "",
        answer: chatAnswerOf((fromJsonText(row.outputs) ?? {}) as Record<string, unknown>),
        status: isRunStatus(row.status) ? row.status : "failed",
        error: row.error,
      };
    });
  } catch (error) {
    throw toDatabaseError(error, `read the turns of chat thread "${threadId}"`);
  }
}

/** A run's answer in a chat: its result when it is text, else the result as JSON; empty without one. */
export function chatAnswerOf(outputs: Record<string, unknown>): string {
  const result = outputs.result;
  if (result === undefined || result === null) return "";
  return typeof result === "string" ? result : JSON.stringify(result);
}
