import type { ChatHistoryTurn } from "../engine";
import { chatInputField } from "../graph";
import type { SqlDatabase } from "./sql/sql-database";

/** The most earlier turns a run is given; each agent then keeps its own window of them. */
export const maxHistoryTurns = 200;

/**
 * A chat turn's thread history, read by the worker that runs it: the
 * thread's earlier turns (their messages and answers, from their runs),
 * oldest first. Null when the run is no chat turn. Read again on a resume,
 * it gives the same turns: the earlier ones are settled.
 */
export async function readChatHistory(db: SqlDatabase, runId: string): Promise<ChatHistoryTurn[] | null> {
  const [run] = await db.query<{ threadId: string | null; threadTurn: number | null }>(`SELECT "threadId", "threadTurn" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run?.threadId || run.threadTurn === null) return null;
  const rows = await db.query<{ input: string; outputs: string; document: string }>(
    `SELECT "input", "outputs", "document" FROM "Run" WHERE "threadId" = ? AND "threadTurn" < ? ORDER BY "threadTurn" DESC LIMIT ${maxHistoryTurns}`,
    [run.threadId, Number(run.threadTurn)],
  );
  return rows.reverse().map((row) => {
    const field = chatInputField(safeJson(row.document));
    const input = (safeJson(row.input) ?? {}) as Record<string, unknown>;
    const result = ((safeJson(row.outputs) ?? {}) as Record<string, unknown>).result;
    return {
      user: field && typeof input[field] === "string" ? (input[field] as string) : "",
      assistant: result === undefined || result === null ? "" : typeof result === "string" ? result : JSON.stringify(result),
    };
  });
}

function safeJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
