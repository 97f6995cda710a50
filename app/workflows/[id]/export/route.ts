import { DatabaseError } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { parseWorkflow } from "@/lib/graph";
import { requireRouteRole } from "@/lib/auth";

export const dynamic = "force-dynamic";

/**
 * GET /workflows/<id>/export: the workflow document as a JSON download,
 * named after the workflow. It is what import reads back: nodes, edges,
 * config; never secrets (a workflow holds none).
 */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const actor = await requireRouteRole("viewer");
  if (actor instanceof Response) return actor;
  // Authorization: Switchboard has no accounts yet; when it does, check here that the caller may read this workflow.
  const { id } = await context.params;
  let workflow;
  try {
    workflow = await getWorkflow(id);
  } catch (error) {
    if (error instanceof DatabaseError) return Response.json({ error: error.message }, { status: 503 });
    throw error;
  }
  if (!workflow) return Response.json({ error: `There is no workflow "${id}".` }, { status: 404 });
  const parsed = parseWorkflow(workflow.document);
  // A document that no longer parses is exported as stored, so nothing is lost.
  const document = parsed.ok ? { ...parsed.workflow, name: workflow.name } : workflow.document;
  return new Response(`${JSON.stringify(document, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName(workflow.name)}.json"`,
      "cache-control": "no-store",
    },
  });
}

function fileName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "workflow";
}
