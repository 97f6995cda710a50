import { DatabaseError, getRunTrace } from "@/lib/db";

/**
 * GET /api/runs/<id>[?after=<n>]: the run, its node runs, its tool calls
 * and its taint entries as JSON (the RunTrace type). With `after`, only the
 * tool calls and taint entries written after the n-th row (they share one
 * write order): the trace page polls this while the run is running.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  // Authorization goes here once auth exists: may this person read this run?
  const { id } = await context.params;
  const after = new URL(request.url).searchParams.get("after");
  const afterSequence = after === null ? 0 : Number(after);
  if (!Number.isInteger(afterSequence) || afterSequence < 0) {
    return Response.json({ error: "`after` must be a whole number ≥ 0: the sequence of the last row (tool call or taint entry) you have." }, { status: 400 });
  }
  try {
    const trace = await getRunTrace(id, { afterSequence });
    if (!trace) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
    return Response.json(trace, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
