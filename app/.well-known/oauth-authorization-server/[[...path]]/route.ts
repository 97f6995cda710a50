import { mcpTokenVariable } from "@/lib/mcp";
import { publicAction } from "@/lib/auth";

/**
 * Switchboard runs no OAuth authorization server: an OAuth client that
 * looks for one (after the protected-resource metadata named none) gets a
 * JSON answer that says what to send instead, not an HTML page.
 */
export async function GET(): Promise<Response> {
  publicAction("OAuth discovery metadata (RFC 8414/9728): public by design, it names no secret");
  return Response.json(
    { error: "not_found", error_description: `Switchboard's MCP endpoint does not use OAuth: send "Authorization: Bearer <token>" with the server's ${mcpTokenVariable}.` },
    { status: 404, headers: { "Cache-Control": "no-store" } },
  );
}
