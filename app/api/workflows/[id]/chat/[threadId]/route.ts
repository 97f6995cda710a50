import { DatabaseError } from "@/lib/db";
import { deleteChatThread, readChatTurns, updateChatThread } from "@/lib/db/app";
import { apiError } from "@/lib/auth";
import { bodyProblem } from "@/lib/api/run-api";
import { chatThreadChange } from "@/lib/api/chat-api";
import { chatInputField } from "@/lib/graph";
import { unfinishedAnswerText } from "@/lib/runs";
import { type ThreadParams, withThread } from "./thread-access";

/**
 * GET /api/workflows/<id>/chat/<threadId>: the thread and its turns (each a
 * run: message, answer, status). Another person's unshared thread is 404. A
 * widget's visitor (its token) reads only their own threads, and a failed
 * turn's error in general words.
 */
export async function GET(request: Request, context: ThreadParams): Promise<Response> {
  return withThread(request, context, "read", async (thread, _caller, visitor) => {
    const turns = await readChatTurns(thread.id, (document) => chatInputField(safeJson(document)));
    const shown = visitor ? turns.map((turn) => ({ ...turn, error: turn.status === "failed" || turn.status === "cancelled" ? unfinishedAnswerText(turn.status) : null })) : turns;
    return Response.json({ thread, turns: shown }, { headers: { "Cache-Control": "no-store" } });
  });
}

/** PATCH with `{ "title"?, "shared"? }`: renames or shares the thread; only the person who started it may. */
export async function PATCH(request: Request, context: ThreadParams): Promise<Response> {
  return withThread(request, context, "change", async (thread) => {
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch (error) {
      return apiError(400, `The body is not JSON: ${(error as Error).message}`, { field: "body" });
    }
    const parsed = chatThreadChange.safeParse(body);
    if (!parsed.success) {
      const problem = bodyProblem(parsed.error);
      return apiError(400, problem.error, { field: problem.field });
    }
    const change = { ...(parsed.data.title !== undefined ? { title: parsed.data.title.trim() } : {}), ...(parsed.data.shared !== undefined ? { shared: parsed.data.shared } : {}) };
    return Response.json({ thread: await updateChatThread(thread.id, change) });
  });
}

/** DELETE: deletes the thread (its runs and their traces stay); only the person who started it may. */
export async function DELETE(request: Request, context: ThreadParams): Promise<Response> {
  return withThread(request, context, "change", async (thread) => {
    await deleteChatThread(thread.id);
    return new Response(null, { status: 204 });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
