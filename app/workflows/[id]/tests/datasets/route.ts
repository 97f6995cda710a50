import { apiError, authorizeApiCaller } from "@/lib/auth";
import { DatasetStore } from "@/lib/db";
import { datasetFormatOf, DatasetRowError } from "@/lib/evals";
import { runService } from "@/lib/runs";

export const dynamic = "force-dynamic";

/**
 * POST /workflows/<id>/tests/datasets?name=FILE.jsonl: the request body is a
 * dataset file (JSONL or CSV, by the name), read as it streams in and
 * stored as the workflow's dataset; the same file again answers the dataset
 * stored before. 400 with `file:line` (and the field) for a malformed row.
 * A runner's session or token.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const authorized = await authorizeApiCaller(request, "runner");
  if (!authorized.ok) return authorized.response;
  const { id } = await context.params;
  const name = new URL(request.url).searchParams.get("name")?.trim() ?? "";
  const format = datasetFormatOf(name);
  if (!format) return apiError(400, `A dataset is a .jsonl (or .ndjson) or .csv file; "${name || "no name"}" is neither.`);
  if (!request.body) return apiError(400, "The request has no body: send the file as it is.");
  const db = runService().db;
  const [workflow] = await db.query<{ id: string }>(`SELECT "id" FROM "Workflow" WHERE "id" = ?`, [id]);
  if (!workflow) return apiError(404, `There is no workflow "${id}".`);
  try {
    const stored = await new DatasetStore(db).save({ workflowId: id, name, format, source: request.body as unknown as AsyncIterable<Uint8Array> });
    return Response.json(stored, { status: stored.existing ? 200 : 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof DatasetRowError) return Response.json({ error: error.message, line: error.line, field: error.field }, { status: 400, headers: { "Cache-Control": "no-store" } });
    throw error;
  }
}
