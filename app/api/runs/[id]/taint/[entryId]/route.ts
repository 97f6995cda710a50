import { DatabaseError } from "@/lib/db";
import { getTaintOrigins } from "@/lib/db/app";
import { wholeNumber } from "../../../query-numbers";
import { requireRouteRole } from "@/lib/auth";

/**
 * GET /api/runs/<id>/taint/<entry id>?after=<cursor>&limit=<n>: a page of the
 * tool calls a tainted memory key or output came from (each with its tool
 * and whether its row is written); `next` continues, null at the end.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string; entryId: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization goes here once auth exists: may this person read this run?
  const { id, entryId } = await context.params;
  const params = new URL(request.url).searchParams;
  const after = wholeNumber(params, "after", 0);
  const limit = wholeNumber(params, "limit", 20);
  if ("error" in after) return Response.json({ error: after.error }, { status: 400 });
  if ("error" in limit) return Response.json({ error: limit.error }, { status: 400 });
  try {
    const page = await getTaintOrigins(id, entryId, { after: after.value, limit: limit.value });
    if (!page) return Response.json({ error: `Run "${id}" has no taint entry "${entryId}".` }, { status: 404 });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
