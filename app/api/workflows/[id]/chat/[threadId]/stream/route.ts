import { unfinishedChatTurn } from "@/lib/db/app";
import { chatTurnResponse } from "@/lib/runs";
import { type ThreadParams, withThread } from "../thread-access";

/**
 * GET /api/workflows/<id>/chat/<threadId>/stream: rejoins the thread's latest
 * turn that has not ended (queued, running, or waiting for a person),
 * answered as the same UI message stream its message was, rebuilt from the
 * journal and followed to its end; 204 when every turn has ended. `useChat`
 * asks this when a page's stream broke (the web process that served it
 * died) or a page opens a thread whose last turn is still going. Who may
 * read the thread may rejoin it; a widget's visitor gets the answer only.
 */
export async function GET(request: Request, context: ThreadParams): Promise<Response> {
  return withThread(request, context, "read", async (thread, _caller, visitor) => {
    const unfinished = await unfinishedChatTurn(thread.id);
    if (!unfinished) return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    return chatTurnResponse({ runId: unfinished.runId, threadId: thread.id, signal: request.signal, answerOnly: visitor, route: `GET /api/workflows/${thread.workflowId}/chat/${thread.id}/stream` });
  });
}
