import "server-only";
import { authorizeEndpointBearer, sameOrigin } from "./endpoint-bearer";
import { refusalFor } from "./require-role";
import { roleAtLeast, type Actor, type Role } from "./roles";
import { accounts, sessionCookieName, sessionUser } from "./sessions";

/** Who calls the HTTP API, and under which scope their Idempotency-Keys live (`token:<id>`, `user:<id>`, `environment`). */
export interface ApiCaller {
  actor: Actor;
  scope: string;
}

export type ApiAuthorization = { ok: true; caller: ApiCaller } | { ok: false; response: Response };

/**
 * The HTTP API's caller: the person whose token the request carries
 * (`Authorization: Bearer <token>` from /tokens, acting with their role; or
 * the owner-level SWITCHBOARD_MCP_TOKEN), or else the signed-in person of
 * the browser's session. Refused as the MCP endpoint refuses (401 for a
 * missing or wrong token, 429 after many wrong ones, 403 for a browser page
 * of another origin), and 403 when the role is below `minimum`.
 *
 * @example
 * const authorized = await authorizeApiCaller(request, "runner");
 * if (!authorized.ok) return authorized.response;
 */
export async function authorizeApiCaller(request: Request, minimum: Role): Promise<ApiAuthorization> {
  if (!request.headers.has("authorization")) {
    // A session is the browser's: a page of another origin may not use it (cookies are SameSite=Lax; this holds without them too).
    if (!sameOrigin(request)) return { ok: false, response: apiError(403, "Requests from a web page of another origin are refused: call the API with a token, not from a browser page.") };
    const user = await sessionUser(cookieValue(request, sessionCookieName));
    if (!user) {
      return { ok: false, response: apiError(401, "Send the header `Authorization: Bearer <token>` with a token from the Tokens page (/tokens), or sign in.", { headers: { "WWW-Authenticate": 'Bearer realm="switchboard"' } }) };
    }
    const actor: Actor = { id: user.id, email: user.email, role: user.role };
    const refused = refusalFor(actor, minimum);
    if (refused) return { ok: false, response: apiError(refused.status, refused.message) };
    return { ok: true, caller: { actor, scope: `user:${actor.id}` } };
  }
  const store = accounts();
  let tokenId: string | null = null;
  const book = {
    environmentToken: process.env.SWITCHBOARD_MCP_TOKEN,
    findToken: async (tokenHash: string) => {
      const token = await store.findActiveApiToken(tokenHash);
      tokenId = token?.id ?? null;
      return token;
    },
    hasTokens: async () => (await store.countActiveApiTokens()) > 0,
    used: (id: string) => store.touchApiToken(id),
  };
  // Any role passes here; the role this call needs is checked below, with a message about the API.
  const authorized = await authorizeEndpointBearer(request, book, "viewer");
  if (!authorized.ok) return authorized;
  const { actor } = authorized;
  if (!roleAtLeast(actor.role, minimum)) {
    return { ok: false, response: apiError(403, `This token belongs to ${actor.email}, a ${actor.role}; this call needs a ${minimum} or higher. Ask an owner to change the role.`) };
  }
  return { ok: true, caller: { actor, scope: tokenId ? `token:${tokenId}` : "environment" } };
}

/** An API error as JSON: `{ error, field? }`, never a stack trace. */
export function apiError(status: number, error: string, extra: { field?: string; headers?: Record<string, string> } = {}): Response {
  return Response.json({ error, ...(extra.field ? { field: extra.field } : {}) }, { status, headers: { "Cache-Control": "no-store", ...extra.headers } });
}

/** One cookie of the request, by name (the route reads the session from the request it answers). */
function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}
