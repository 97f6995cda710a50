/** The environment variable that holds the endpoint's bearer token. */
export const mcpTokenVariable = "SWITCHBOARD_MCP_TOKEN";

/**
 * An HTTP answer in the shape the MCP SDK's transport uses for its own
 * refusals (a JSON-RPC error with a null id), so an MCP client shows the
 * message. Only a message: never a stack trace.
 */
export function endpointErrorResponse(status: number, message: string, options: { code?: number; headers?: Record<string, string> } = {}): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: options.code ?? -32000, message }, id: null },
    { status, headers: { "Cache-Control": "no-store", ...options.headers } },
  );
}

/** Where the endpoint's protected-resource metadata is (RFC 9728: the well-known path before the resource's path). */
export function protectedResourceMetadataUrl(request: Request): string {
  const url = new URL(request.url);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, "")}`;
}

/**
 * The endpoint's protected-resource metadata (RFC 9728), for OAuth-capable
 * hosts (mcp-remote, the inspector): the resource takes a bearer token in
 * the Authorization header and names no authorization server, because the
 * token is not issued by OAuth: it is a person's token from the Tokens page
 * (or the server's SWITCHBOARD_MCP_TOKEN).
 * An OAuth client then has nothing to register with and says so, instead
 * of trying dynamic registration against HTML pages.
 *
 * @example protectedResourceMetadata("https://sb.example/api/mcp/desk") // { resource: "https://sb.example/api/mcp/desk", authorization_servers: [], … }
 */
export function protectedResourceMetadata(resource: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [],
    bearer_methods_supported: ["header"],
    resource_name: "Switchboard workflow MCP endpoint",
    resource_documentation: `Send the header "Authorization: Bearer <token>", where <token> is a token from the Switchboard's Tokens page (/tokens) or its ${mcpTokenVariable}. This endpoint does not use OAuth: there is no authorization server to register with.`,
  };
}
