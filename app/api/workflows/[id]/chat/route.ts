import { DatabaseError } from "@/lib/db";
import { getWorkflow, createChatThread, listChatThreads, readChatThread, touchChatThread, unfinishedChatTurn } from "@/lib/db/app";
import { apiError, authorizeApiCaller, roleAtLeast } from "@/lib/auth";
import { bodyProblem } from "@/lib/api/run-api";
import { chatTurnBody } from "@/lib/api/chat-api";
import { readLimitedBody } from "@/lib/triggers";
import { chatTurnResponse, runService, startChatTurn } from "@/lib/runs";
import { authorizeWidgetCaller, widgetBearer } from "@/lib/embed/widget-caller";

type Params = { params: Promise<{ id: string }> };

/** The largest body a chat turn takes: a widget's visitor sends a message only; the playground sends its document too. */
const maxWidgetBodyBytes = 64 * 1024;
const maxChatBodyBytes = 4 * 1024 * 1024;

/**
 * POST /api/workflows/<id>/chat with `{ "threadId"?, "message" }`: one turn
 * of a chat thread (a new thread without `threadId`), answered as a UI
 * message stream (the AI SDK's protocol: `useChat` reads it) that follows
 * the turn's run: the text token by token, tool calls as they start and
 * end, a call held for approval. A runner's token or session. Another
 * person's thread is 404 (a shared one is read-only: 403); a message over
 * the limit is 400 naming it. The playground sends `document` (the unsaved
 * one): editors only.
 */
export async function POST(request: Request, context: Params): Promise<Response> {
  const { id } = await context.params;
  // A chat widget's visitor (docs/chat.md, Embedding a chat): its token, origin and rate limit.
  const widgetCall = widgetBearer(request) ? await authorizeWidgetCaller(request, id, { countMessage: true }) : null;
  const authorized = widgetCall ?? (await authorizeApiCaller(request, "runner"));
  if (!authorized.ok) return authorized.response;
  // Read with a cap before anything is parsed: a visitor's message is small; an editor's playground also sends its document.
  const read = await readLimitedBody(request, widgetCall ? maxWidgetBodyBytes : maxChatBodyBytes);
  if (!read.ok) return apiError(413, `The body is too large: ${read.reason}; the limit is ${widgetCall ? maxWidgetBodyBytes : maxChatBodyBytes} bytes.`, { field: "body" });
  let body: unknown;
  try {
    body = JSON.parse(read.body.toString("utf8"));
  } catch (error) {
    return apiError(400, `The body is not JSON: ${(error as Error).message}`, { field: "body" });
  }
  const parsed = chatTurnBody.safeParse(body);
  if (!parsed.success) {
    const problem = bodyProblem(parsed.error);
    return apiError(400, problem.error, { field: problem.field });
  }
  const { actor } = authorized.caller;
  if (parsed.data.document !== undefined && !roleAtLeast(actor.role, "editor")) return apiError(403, `Running an unsaved document needs an editor or higher; ${actor.email} is a ${actor.role}.`, { field: "document" });
  try {
    const workflow = await getWorkflow(id);
    if (!workflow) return apiError(404, `There is no workflow "${id}".`);
    let thread = parsed.data.threadId ? await readChatThread(id, parsed.data.threadId, actor.id, widgetCall !== null) : null;
    if (parsed.data.threadId && !thread) return apiError(404, `There is no chat thread "${parsed.data.threadId}" of this workflow that you can see.`, { field: "threadId" });
    if (thread && thread.ownerId !== actor.id) return apiError(403, "This thread was shared with you to read; only the person who started it can add to it.", { field: "threadId" });
    const unfinished = thread ? await unfinishedChatTurn(thread.id) : null;
    if (unfinished) return apiError(409, `This thread's last turn has not ended yet (run ${unfinished.runId} is ${unfinished.status}); send the next message when it has.`, { field: "threadId" });
    thread ??= await createChatThread({ workflowId: id, ownerId: actor.id, title: parsed.data.message, place: parsed.data.place ?? (parsed.data.document !== undefined ? "canvas" : "page"), widgetId: widgetCall?.ok ? widgetCall.widget.id : undefined });
    const started = await startChatTurn(runService(), { workflowId: id, document: parsed.data.document ?? workflow.document, threadId: thread.id, message: parsed.data.message, by: actor.email });
    if (!started.ok) return apiError(started.code === "input" || started.code === "not-chat" ? 400 : 409, started.error, { field: started.field ?? (started.code === "not-chat" ? "message" : undefined) });
    await touchChatThread(thread.id);
    return chatTurnResponse({ runId: started.runId, threadId: thread.id, signal: request.signal, answerOnly: widgetCall !== null, route: `POST /api/workflows/${id}/chat` });
  } catch (error) {
    if (error instanceof DatabaseError) return apiError(503, error.message);
    console.error(`POST /api/workflows/${id}/chat:`, error);
    return apiError(500, "The message could not be sent because of an error on our side; the server log has the details.");
  }
}

/** GET /api/workflows/<id>/chat: the threads of this workflow the caller may see (theirs and the shared ones), latest first. */
export async function GET(request: Request, context: Params): Promise<Response> {
  const { id } = await context.params;
  const widgetCall = widgetBearer(request) ? await authorizeWidgetCaller(request, id, { countMessage: false }) : null;
  const authorized = widgetCall ?? (await authorizeApiCaller(request, "runner"));
  if (!authorized.ok) return authorized.response;
  const place = new URL(request.url).searchParams.get("place");
  if (place !== null && place !== "canvas" && place !== "page") return apiError(400, "place must be canvas or page.", { field: "place" });
  try {
    const workflow = await getWorkflow(id);
    if (!workflow) return apiError(404, `There is no workflow "${id}".`);
    return Response.json({ threads: await listChatThreads(id, authorized.caller.actor.id, place ?? undefined, widgetCall !== null), viewerId: authorized.caller.actor.id }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return apiError(503, error.message);
    console.error(`GET /api/workflows/${id}/chat:`, error);
    return apiError(500, "The threads could not be read because of an error on our side; the server log has the details.");
  }
}
