import { DatabaseError } from "@/lib/db";
import { getRunProgress } from "@/lib/db/app";
import { requireRouteRole } from "@/lib/auth";

/**
 * GET /api/runs/<id>/progress[?after=<n>]: what the canvas shows of a run
 * (RunProgress): status, result, each node's latest outputs, and the tool
 * calls after the n-th row. The canvas polls it while the run runs.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization goes here once auth exists: may this person read this run?
  const { id } = await context.params;
  const after = new URL(request.url).searchParams.get("after");
  const afterSequence = after === null ? 0 : Number(after);
  if (!Number.isInteger(afterSequence) || afterSequence < 0) {
    return Response.json({ error: "`after` must be a whole number ≥ 0: the sequence of the last tool call you have." }, { status: 400 });
  }
  try {
    const progress = await getRunProgress(id, { afterSequence });
    if (!progress) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
    return Response.json(progress, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
