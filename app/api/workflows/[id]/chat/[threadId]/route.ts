import { DatabaseError } from "@/lib/db";
import { deleteChatThread, readChatThread, readChatTurns, updateChatThread } from "@/lib/db/chat-threads";
import { apiError, authorizeApiCaller, type ApiCaller } from "@/lib/auth";
import { bodyProblem } from "@/lib/api/run-api";
import { chatThreadChange } from "@/lib/api/chat-api";
import { chatInputField } from "@/lib/graph";
import { unfinishedAnswerText } from "@/lib/runs";
import { authorizeWidgetCaller, widgetBearer } from "@/lib/embed/widget-caller";

type Params = { params: Promise<{ id: string; threadId: string }> };

/**
 * GET /api/workflows/<id>/chat/<threadId>: the thread and its turns (each a
 * run: message, answer, status). Another person's unshared thread is 404. A
 * widget's visitor (its token) reads only their own threads, and a failed
 * turn's error in general words.
 */
export async function GET(request: Request, context: Params): Promise<Response> {
  return withThread(request, context, "read", async (thread, _caller, visitor) => {
    const turns = await readChatTurns(thread.id, (document) => chatInputField(safeJson(document)));
    const shown = visitor ? turns.map((turn) => ({ ...turn, error: turn.status === "failed" || turn.status === "cancelled" ? unfinishedAnswerText(turn.status) : null })) : turns;
    return Response.json({ thread, turns: shown }, { headers: { "Cache-Control": "no-store" } });
  });
}

/** PATCH with `{ "title"?, "shared"? }`: renames or shares the thread; only the person who started it may. */
export async function PATCH(request: Request, context: Params): Promise<Response> {
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
export async function DELETE(request: Request, context: Params): Promise<Response> {
  return withThread(request, context, "change", async (thread) => {
    await deleteChatThread(thread.id);
    return new Response(null, { status: 204 });
  });
}

type ThreadRecord = NonNullable<Awaited<ReturnType<typeof readChatThread>>>;

/** `visitor`: the caller is a widget's visitor, who may only read their own threads (a widget token is not known to PATCH and DELETE: 401). */
async function withThread(request: Request, context: Params, intent: "read" | "change", answer: (thread: ThreadRecord, caller: ApiCaller, visitor: boolean) => Promise<Response>): Promise<Response> {
  const { id, threadId } = await context.params;
  const visitor = intent === "read" && widgetBearer(request) !== null;
  const authorized = visitor ? await authorizeWidgetCaller(request, id, { countMessage: false }) : await authorizeApiCaller(request, "runner");
  if (!authorized.ok) return authorized.response;
  try {
    const thread = await readChatThread(id, threadId, authorized.caller.actor.id, visitor);
    if (!thread) return apiError(404, `There is no chat thread "${threadId}" of this workflow that you can see.`);
    if (intent === "change" && thread.ownerId !== authorized.caller.actor.id) return apiError(403, "Only the person who started this thread can rename, share or delete it.");
    return await answer(thread, authorized.caller, visitor);
  } catch (error) {
    if (error instanceof DatabaseError) return apiError(503, error.message);
    console.error(`${request.method} /api/workflows/${id}/chat/${threadId}:`, error);
    return apiError(500, "The thread could not be read or changed because of an error on our side; the server log has the details.");
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
