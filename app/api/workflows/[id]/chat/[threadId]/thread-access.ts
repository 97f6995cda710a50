import { DatabaseError } from "@/lib/db";
import { readChatThread } from "@/lib/db/app";
import { apiError, authorizeApiCaller, type ApiCaller } from "@/lib/auth";
import { authorizeWidgetCaller, widgetBearer } from "@/lib/embed/widget-caller";

export type ThreadParams = { params: Promise<{ id: string; threadId: string }> };

export type ThreadRecord = NonNullable<Awaited<ReturnType<typeof readChatThread>>>;

/** `visitor`: the caller is a widget's visitor, who may only read their own threads (a widget token is not known to PATCH and DELETE: 401). */
export async function withThread(request: Request, context: ThreadParams, intent: "read" | "change", answer: (thread: ThreadRecord, caller: ApiCaller, visitor: boolean) => Promise<Response>): Promise<Response> {
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
