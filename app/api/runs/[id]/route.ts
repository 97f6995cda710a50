import { DatabaseError } from "@/lib/db";
import { getRunTrace, getTraceChanges, getTraceOverview } from "@/lib/db/app";
import { filtersFrom, parseCursor } from "@/lib/trace";
import { authorizeApiCaller } from "@/lib/auth";
import { runAnswerOf } from "@/lib/api/run-api";
import { runService } from "@/lib/runs";

/** Rows one `after` answer holds at most; a follower asks again from the last one. */
const afterLimit = 1000;

/**
 * GET /api/runs/<id>[?node=&tool=&errors=1]: where the run stands (the
 * HTTP API's Run: status, outputs, error, origin, links) with the trace page's first answer
 * (TraceOverview): the run, its node runs, totals counted by the database,
 * the first calls of each node run (under the filters), the taint summary.
 * Its size does not grow with the run; the rest comes from
 * /api/runs/<id>/calls.
 *
 * GET /api/runs/<id>?since=<cursor>[&node=&tool=&errors=1]: what changed
 * after the `cursor` of the first answer or of the answer before
 * (TraceChanges): the run, the node runs that started or ended, the counts,
 * the calls and model turns written since at their places, the taint
 * summary when it changed. The run page's live poll; its size is what
 * changed, not the run.
 *
 * GET /api/runs/<id>?after=<n>: the run, its node runs, and the tool calls
 * and taint entries written after the n-th row (RunTrace), at most 1,000 of
 * them in write order: for followers that only need what is new (the
 * canvas asks after=<a large n> for the run and node runs alone).
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  // A viewer's session or token: every signed-in person reads every run.
  const authorized = await authorizeApiCaller(request, "viewer");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  const params = new URL(request.url).searchParams;
  const since = params.get("since");
  const sinceCursor = since === null ? null : parseCursor(since);
  if (since !== null && !sinceCursor) {
    return Response.json({ error: "`since` must be the `cursor` of an earlier answer of this run (e.g. `120.3`)." }, { status: 400 });
  }
  const after = params.get("after");
  const afterSequence = after === null ? 0 : Number(after);
  if (!Number.isSafeInteger(afterSequence) || afterSequence < 0) {
    return Response.json({ error: "`after` must be a whole number ≥ 0: the sequence of the last row (tool call or taint entry) you have." }, { status: 400 });
  }
  try {
    if (sinceCursor) {
      const changes = await getTraceChanges(id, sinceCursor, filtersFrom(params));
      if (!changes) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
      return Response.json(changes, { headers: { "Cache-Control": "no-store" } });
    }
    if (after !== null) {
      const trace = await getRunTrace(id, { afterSequence, limit: afterLimit });
      if (!trace) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
      return Response.json(trace, { headers: { "Cache-Control": "no-store" } });
    }
    const [state, overview] = await Promise.all([runService().read(id), getTraceOverview(id, filtersFrom(params))]);
    if (!state || !overview) return Response.json({ error: `There is no run "${id}".` }, { status: 404 });
    return Response.json({ ...runAnswerOf(state), ...overview }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
