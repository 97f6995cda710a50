import { protectedResourceMetadata } from "@/lib/mcp";
import { publicAction } from "@/lib/auth";

interface RouteContext {
  params: Promise<{ workflowId: string }>;
}

/** Protected-resource metadata (RFC 9728) of /api/mcp/<workflow id>: how to authenticate to it (a bearer token, no OAuth). */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  publicAction("OAuth discovery metadata (RFC 8414/9728): public by design, it names no secret");
  const { workflowId } = await context.params;
  const resource = `${new URL(request.url).origin}/api/mcp/${encodeURIComponent(workflowId)}`;
  return Response.json(protectedResourceMetadata(resource), { headers: { "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" } });
}
