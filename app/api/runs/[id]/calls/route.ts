import { DatabaseError } from "@/lib/db";
import { getCallPage, maxPageCalls } from "@/lib/db/app";
import { filtersFrom, outsideGroup } from "@/lib/trace";
import { wholeNumber } from "../../query-numbers";
import { requireRouteRole } from "@/lib/auth";

/**
 * GET /api/runs/<id>/calls?group=<node run id | "">&after=<cursor>|offset=<n>&limit=<n>[&node=&tool=&errors=1]:
 * a page of one node run's tool calls (group "" : the calls with no node
 * run), in write order, under the trace's filters, without their
 * arguments and results (GET …/calls/<call id> has those). `after` takes
 * the `next` cursor of the page before; `offset` a position (positions
 * never move: rows are only added at the end). `next` is null once the
 * page reached the last row written so far.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization goes here once auth exists: may this person read this run?
  const { id } = await context.params;
  const params = new URL(request.url).searchParams;
  const limit = wholeNumber(params, "limit", 100);
  const offset = wholeNumber(params, "offset", 0);
  const after = wholeNumber(params, "after", null);
  for (const checked of [limit, offset, after]) if ("error" in checked) return Response.json({ error: checked.error }, { status: 400 });
  if (!("value" in limit) || limit.value < 1 || limit.value > maxPageCalls) return Response.json({ error: `\`limit\` must be between 1 and ${maxPageCalls}.` }, { status: 400 });
  try {
    const page = await getCallPage(id, {
      group: params.get("group") ?? outsideGroup,
      filters: filtersFrom(params),
      after: "value" in after && after.value !== null ? String(after.value) : undefined,
      offset: "value" in offset ? (offset.value ?? 0) : 0,
      limit: limit.value,
    });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
