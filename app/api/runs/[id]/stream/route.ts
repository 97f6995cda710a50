import { DatabaseError } from "@/lib/db";
import { apiError, authorizeApiCaller } from "@/lib/auth";
import { runService, runStreamResponse } from "@/lib/runs";

/**
 * GET /api/runs/<id>/stream: the run as a UI message stream (the AI SDK's
 * protocol; `useChat` reads it through `resumeStream`): each agent's text
 * token by token while the run runs, one text part per model turn, tool
 * calls as they start and end, then the end. A run that has ended gives its
 * recorded text and calls once. Read as the run page is: a viewer's session
 * or token, and a run the caller cannot see is 404.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "viewer");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  try {
    if (!(await runService().read(id))) return apiError(404, `There is no run "${id}".`);
  } catch (error) {
    if (error instanceof DatabaseError) return apiError(503, error.message);
    throw error;
  }
  return runStreamResponse({
    runId: id,
    signal: request.signal,
    metadata: { runId: id },
    route: `GET /api/runs/${id}/stream`,
    failure: "The run could not be followed because of an error on our side; the run goes on, and its trace has what it did.",
  });
}
