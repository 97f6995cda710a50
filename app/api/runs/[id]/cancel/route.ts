import { apiError, authorizeApiCaller } from "@/lib/auth";
import { runService } from "@/lib/runs";

/**
 * POST /api/runs/<id>/cancel: asks a run to stop, whichever process runs
 * it. `cancelled`: it had not started, or was waiting for a person;
 * `requested`: its worker stops it within about a second. 409 when it has
 * already ended. A runner's token or session.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "runner");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  const result = await runService().cancel(id);
  if (result === "unknown") return apiError(404, `There is no run "${id}".`);
  if (result === "ended") return apiError(409, `The run "${id}" has already ended.`);
  return Response.json({ runId: id, cancel: result }, { headers: { "Cache-Control": "no-store" } });
}
