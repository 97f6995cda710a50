import { DatabaseError } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { apiError, authorizeApiCaller } from "@/lib/auth";
import { bodyProblem, linksOf, startRunBody, type StartRunAnswer } from "@/lib/api/run-api";
import { idempotencyKey, runService } from "@/lib/runs";

/** The longest Idempotency-Key kept; longer ones are refused. */
const maxKeyLength = 255;

/**
 * POST /api/workflows/<id>/runs with `{ "input": { … } }`: starts a run of
 * the saved workflow and answers `202 { runId, status, links }` at once.
 * A runner's token (or higher) from /tokens, or a signed-in runner. The
 * input is checked against the Start's fields: a bad one is 400 naming the
 * field, and nothing is started. An `Idempotency-Key` header makes a
 * retried POST answer the run the first one started (per token, for 24 h).
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "runner");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  const key = request.headers.get("idempotency-key");
  if (key !== null && (key.trim() === "" || key.length > maxKeyLength)) return apiError(400, `The Idempotency-Key header must be 1 to ${maxKeyLength} characters.`, { field: "Idempotency-Key" });
  let body: unknown;
  try {
    const text = await request.text();
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return apiError(400, `The body is not JSON: ${(error as Error).message}`, { field: "body" });
  }
  const parsed = startRunBody.safeParse(body);
  if (!parsed.success) {
    const problem = bodyProblem(parsed.error);
    return apiError(400, problem.error, { field: problem.field });
  }
  try {
    const workflow = await getWorkflow(id);
    if (!workflow) return apiError(404, `There is no workflow "${id}".`);
    const { actor, scope } = authorized.caller;
    const started = await runService().start(
      { workflowId: workflow.id, document: workflow.document, input: parsed.data.input, origin: { kind: "api", by: actor.email, ...(scope.startsWith("token:") ? { tokenId: scope.slice("token:".length) } : {}) } },
      key === null ? {} : { once: idempotencyKey(scope, key) },
    );
    if (!started.ok) return apiError(started.code === "input" ? 400 : 409, started.error, { field: started.field });
    const answer: StartRunAnswer = { runId: started.runId, status: "queued", links: linksOf(started.runId) };
    if (started.duplicate) {
      const state = await runService().read(started.runId);
      if (state) answer.status = state.status;
    }
    return Response.json(answer, {
      status: 202,
      headers: { Location: answer.links.self, "Cache-Control": "no-store", ...(started.duplicate ? { "Idempotent-Replayed": "true" } : {}) },
    });
  } catch (error) {
    if (error instanceof DatabaseError) return apiError(503, error.message);
    console.error(`POST /api/workflows/${id}/runs:`, error);
    return apiError(500, "The run could not be started because of an error on our side; the server log has the details.");
  }
}
