import { openApiDocument } from "@/lib/api/openapi";
import { publicAction } from "@/lib/auth";

/** GET /api/openapi.json: the HTTP API's OpenAPI 3.1 document. */
export function GET(): Response {
  publicAction("the API's description: it grants nothing, and every call it describes checks its caller");
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
