import { createHash, timingSafeEqual } from "node:crypto";

/** The environment variable that holds the endpoint's bearer token. */
export const mcpTokenVariable = "SWITCHBOARD_MCP_TOKEN";

/** Shorter tokens are refused: they can be guessed. */
const minimumTokenLength = 16;

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

/**
 * Who may use a workflow's MCP endpoint: a request that carries
 * `Authorization: Bearer <token>`, where the token is the server's
 * SWITCHBOARD_MCP_TOKEN. Without a token configured the endpoint is off
 * (401, saying how to turn it on). A browser page of another origin is
 * refused (403) whatever it sends, against DNS rebinding. Null: go on.
 *
 * @example
 * const refused = authorizeEndpointRequest(request, process.env.SWITCHBOARD_MCP_TOKEN);
 * if (refused) return refused;
 */
export function authorizeEndpointRequest(request: Request, token: string | undefined): Response | null {
  const metadata = protectedResourceMetadataUrl(request);
  const challenge = { "WWW-Authenticate": `Bearer realm="switchboard", resource_metadata="${metadata}"` };
  if (!token || token.trim().length < minimumTokenLength) {
    const why = token ? `${mcpTokenVariable} is shorter than ${minimumTokenLength} characters` : `${mcpTokenVariable} is not set`;
    return endpointErrorResponse(
      401,
      `The MCP endpoint is off: ${why}. To turn it on, set ${mcpTokenVariable} in the server's environment to a long random value (e.g. from \`openssl rand -hex 32\`), restart the server, and have the MCP host send the header \`Authorization: Bearer <that value>\`.`,
      { headers: challenge },
    );
  }
  if (!sameOrigin(request)) {
    return endpointErrorResponse(403, "Requests from another origin (a web page) are refused: call the MCP endpoint from an MCP host, not from a browser page.");
  }
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!presented || !sameSecret(presented, token.trim())) {
    return endpointErrorResponse(401, `Missing or wrong bearer token: send the header \`Authorization: Bearer <the value of ${mcpTokenVariable}>\`.`, {
      headers: { "WWW-Authenticate": `Bearer realm="switchboard", error="invalid_token", error_description="send the endpoint's bearer token", resource_metadata="${metadata}"` },
    });
  }
  return null;
}

/** No Origin (an MCP host is not a browser), or the same host the request was sent to. */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  try {
    return new URL(origin).host === (request.headers.get("host") ?? new URL(request.url).host);
  } catch {
    return false;
  }
}

/** Compared in constant time: digests of equal length, so neither the content nor the length leaks. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
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
 * token is not issued by OAuth: it is the server's SWITCHBOARD_MCP_TOKEN.
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
    resource_documentation: `Send the header "Authorization: Bearer <token>", where <token> is the Switchboard server's ${mcpTokenVariable}. This endpoint does not use OAuth: there is no authorization server to register with.`,
  };
}
