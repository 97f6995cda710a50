import { DatabaseError, getRunTrace, getTraceOverview } from "@/lib/db";
import { filtersFrom } from "@/lib/trace/trace-page";
import { requireRouteRole } from "@/lib/auth/require-role";

/** Rows one `after` answer holds at most; a follower asks again from the last one. */
const afterLimit = 1000;

/**
 * GET /api/runs/<id>[?node=&tool=&errors=1]: the trace page's first answer
 * (TraceOverview): the run, its node runs, totals counted by the database,
 * the first calls of each node run (under the filters), the taint summary.
 * Its size does not grow with the run; the rest comes from
 * /api/runs/<id>/calls.
 *
 * GET /api/runs/<id>?after=<n>: the run, its node runs, and the tool calls
 * and taint entries written after the n-th row (RunTrace), at most 1,000 of
 * them in write order: for followers that only need what is new (the
 * canvas asks after=<a large n> for the run and node runs alone).
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization goes here once auth exists: may this person read this run?
  const { id } = await context.params;
  const params = new URL(request.url).searchParams;
  const after = params.get("after");
  const afterSequence = after === null ? 0 : Number(after);
  if (!Number.isSafeInteger(afterSequence) || afterSequence < 0) {
    return Response.json({ error: "`after` must be a whole number ≥ 0: the sequence of the last row (tool call or taint entry) you have." }, { status: 400 });
  }
  try {
    const answer = after === null ? await getTraceOverview(id, filtersFrom(params)) : await getRunTrace(id, { afterSequence, limit: afterLimit });
    if (!answer) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
    return Response.json(answer, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
