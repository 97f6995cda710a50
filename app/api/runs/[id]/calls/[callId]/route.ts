import { DatabaseError } from "@/lib/db";
import { getCallDetail } from "@/lib/db/app";
import { requireRouteRole } from "@/lib/auth";

/** GET /api/runs/<id>/calls/<call id>: one tool call in full (arguments, result, error) and its position in its node run. */
export async function GET(_request: Request, context: { params: Promise<{ id: string; callId: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization goes here once auth exists: may this person read this run?
  const { id, callId } = await context.params;
  try {
    const detail = await getCallDetail(id, callId);
    if (!detail) return Response.json({ error: `Run "${id}" has no tool call "${callId}".` }, { status: 404 });
    return Response.json(detail, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
}
