import { endpointErrorResponse, mcpTokenVariable, protectedResourceMetadataUrl } from "../mcp";
import { appBearerLimits } from "./app-rate-limits";
import { clientAddress, trustedProxiesFromEnvironment } from "./client-address";
import { type BearerTokenLimits, bearerRules } from "./rate-limits";
import { roleAtLeast, type Actor, type Role } from "./roles";
import { secretHash, weakTokenReason } from "../security";
import { timingSafeEqual } from "node:crypto";

/** Where the endpoint looks tokens up: the environment's owner-level token and the people's stored ones. */
export interface EndpointTokenBook {
  /** SWITCHBOARD_MCP_TOKEN: an owner-level token set by whoever runs the server. */
  environmentToken: string | undefined;
  /** A stored, unrevoked token by its SHA-256. */
  findToken(tokenHash: string): Promise<{ id: string; userId: string; userEmail: string; userRole: Role } | null>;
  /** Whether any person has an unrevoked token (else the endpoint is "off" and says how to turn it on). */
  hasTokens(): Promise<boolean>;
  /** Records a stored token's use (its "last used"). */
  used?(id: string): Promise<void>;
}

/** How wrong tokens are limited, and which proxies' X-Forwarded-For is believed (the app's by default). */
export interface BearerLimitOptions {
  limits?: BearerTokenLimits;
  trustedProxies?: readonly string[];
}

export type EndpointAuthorization = { ok: true; actor: Actor } | { ok: false; response: Response };

/** The environment's token as a person: it acts as an owner. */
export const environmentActor: Actor = { id: "environment", email: mcpTokenVariable, role: "owner" };

/**
 * Who is calling a workflow's MCP endpoint: the person whose token the
 * request carries (`Authorization: Bearer <token>`), or the owner-level
 * SWITCHBOARD_MCP_TOKEN. Refused: a browser page of another origin (403,
 * against DNS rebinding), a missing or wrong token (401 with a Bearer
 * challenge; 429 once its address sent 20 wrong tokens within a minute, or
 * all addresses 200, logged without the token), and a token whose person's
 * role is below `minimum` (403; calling tools starts runs, so the route asks
 * for runner). A valid token is looked at first and never limited: someone
 * else's wrong tokens, from any address, forged or not, cannot keep it out.
 * A weak SWITCHBOARD_MCP_TOKEN (short, few different characters) is never accepted.
 */
export async function authorizeEndpointBearer(request: Request, book: EndpointTokenBook, minimum: Role = "runner", options: BearerLimitOptions = {}): Promise<EndpointAuthorization> {
  const refuse = (response: Response): EndpointAuthorization => ({ ok: false, response });
  if (!sameOrigin(request)) {
    return refuse(endpointErrorResponse(403, "Requests from another origin (a web page) are refused: call the MCP endpoint from an MCP host, not from a browser page."));
  }
  const metadata = protectedResourceMetadataUrl(request);
  const environment = environmentToken(book.environmentToken);
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (presented && environment.token && sameSecret(presented, environment.token)) return allowed(environmentActor, minimum);
  const stored = presented ? await book.findToken(secretHash(presented)) : null;
  if (stored) {
    await book.used?.(stored.id);
    return allowed({ id: stored.userId, email: stored.userEmail, role: stored.userRole }, minimum);
  }
  const limits = options.limits ?? appBearerLimits();
  const address = clientAddress(request.headers.get("x-forwarded-for"), options.trustedProxies ?? trustedProxiesFromEnvironment());
  const wait = await limits.wait(address);
  if (wait > 0) {
    return refuse(endpointErrorResponse(429, `Too many wrong bearer tokens; try again in ${wait} s.`, { headers: { "Retry-After": String(wait) } }));
  }
  if (presented) await countWrongToken(limits, address);
  if (!environment.token && !(await book.hasTokens())) {
    return refuse(
      endpointErrorResponse(
        401,
        `The MCP endpoint is off: no one has created a token on the Tokens page (/tokens), and ${environment.problem}. To turn it on, create a token on /tokens (it acts with your role), or set ${mcpTokenVariable} in the server's environment to a long random value (e.g. from \`openssl rand -hex 32\`) and restart; then have the MCP host send the header \`Authorization: Bearer <token>\`.`,
        { headers: { "WWW-Authenticate": `Bearer realm="switchboard", resource_metadata="${metadata}"` } },
      ),
    );
  }
  return refuse(
    endpointErrorResponse(401, "Missing or wrong bearer token: send the header `Authorization: Bearer <token>` with a token from the Tokens page (/tokens) or the server's SWITCHBOARD_MCP_TOKEN.", {
      headers: { "WWW-Authenticate": `Bearer realm="switchboard", error="invalid_token", error_description="send a Switchboard MCP token", resource_metadata="${metadata}"` },
    }),
  );
}

function allowed(actor: Actor, minimum: Role): EndpointAuthorization {
  if (roleAtLeast(actor.role, minimum)) return { ok: true, actor };
  return {
    ok: false,
    response: endpointErrorResponse(403, `This token belongs to ${actor.email}, a ${actor.role}: calling a workflow's tools starts runs, which needs a ${minimum} or higher. Ask an owner to change the role.`),
  };
}

/** The environment token when it is strong enough; otherwise why it is not used. */
function environmentToken(value: string | undefined): { token: string | null; problem: string } {
  const token = value?.trim();
  if (!token) return { token: null, problem: `${mcpTokenVariable} is not set` };
  const weak = weakTokenReason(token);
  return weak ? { token: null, problem: `${mcpTokenVariable} is refused: ${weak}` } : { token, problem: "" };
}

async function countWrongToken(limits: BearerTokenLimits, address: string): Promise<void> {
  const reached = await limits.failed(address);
  // The log names the address and the count, never the token that was sent.
  if (reached.addressReached) console.warn(`mcp endpoint: ${bearerRules.perAddress} wrong bearer tokens within a minute from ${address}; answering 429 to its callers without a valid token until the minute has passed`);
  if (reached.overallReached) console.warn(`mcp endpoint: ${bearerRules.overall} wrong bearer tokens within a minute from all addresses together; answering 429 to every caller without a valid token until the minute has passed`);
}

/** No Origin (an MCP host is not a browser), or the same host the request was sent to. */
export function sameOrigin(request: Request): boolean {
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
  return timingSafeEqual(Buffer.from(secretHash(presented), "hex"), Buffer.from(secretHash(expected), "hex"));
}
