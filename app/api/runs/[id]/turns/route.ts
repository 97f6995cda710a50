import { DatabaseError } from "@/lib/db";
import { getTurnPage, maxPageTurns } from "@/lib/db/app";
import { wholeNumber } from "../../query-numbers";
import { requireRouteRole } from "@/lib/auth";

/**
 * GET /api/runs/<id>/turns?group=<node run id>&offset=<n>&limit=<n>: a page
 * of one node run's model turns, numbered as in the trace's first answer
 * (`turnPlaces`): `turns[i]` is turn `offset + i`. A turn never changes once
 * recorded and new ones only join at the end, so numbers never move.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  const { id } = await context.params;
  const params = new URL(request.url).searchParams;
  const group = params.get("group");
  if (!group) return Response.json({ error: "Name the node run whose turns to read (`group=<node run id>`)." }, { status: 400 });
  const limit = wholeNumber(params, "limit", 100);
  const offset = wholeNumber(params, "offset", 0);
  for (const checked of [limit, offset]) if ("error" in checked) return Response.json({ error: checked.error }, { status: 400 });
  if (!("value" in limit) || limit.value < 1 || limit.value > maxPageTurns) return Response.json({ error: `\`limit\` must be between 1 and ${maxPageTurns}.` }, { status: 400 });
  try {
    const page = await getTurnPage(id, { group, offset: "value" in offset ? offset.value : 0, limit: limit.value });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
