import { cookies } from "next/headers";
import { type NextRequest, NextResponse } from "next/server";
import { serverRegistry } from "@/app/servers/server-registry";
import { requireRole } from "@/lib/auth";
import { appOrigin, finishConnect, serverPolicyFromEnvironment } from "@/lib/mcp";
import { guardedWebFetch } from "@/lib/security";
import { oauthResultCookie, oauthStateCookie, oauthStore } from "../oauth-connection";

/**
 * Where the provider's consent page sends the person back
 * (`/servers/oauth/callback?code=…&state=…`). The `state` must match the
 * HttpOnly cookie set when this browser pressed Connect, and the one kept
 * with the server; then the code is exchanged and the tokens sealed. Either
 * way the person lands on /servers with one line saying what happened.
 */
export async function GET(request: NextRequest) {
  const actor = await requireRole("owner");
  const jar = await cookies();
  const bound = jar.get(oauthStateCookie)?.value ?? "";
  jar.delete({ name: oauthStateCookie, path: "/servers/oauth" });
  const params = request.nextUrl.searchParams;
  const separator = bound.lastIndexOf(".");
  const serverId = separator > 0 ? bound.slice(0, separator) : "";
  const expected = separator > 0 ? bound.slice(separator + 1) : "";
  const note = await outcome(async () => {
    if (!serverId || !expected) return "Connecting failed: this browser started no authorization (or it expired after 10 minutes): nothing was stored; press Connect again.";
    if (params.get("state") !== expected) return "Connecting failed: the callback's state does not match the authorization this browser started: nothing was stored; press Connect again.";
    const resolved = await serverRegistry().resolve(serverId);
    if (!resolved) return `Connecting failed: there is no server '${serverId}' any more.`;
    const origin = appOrigin() ?? request.nextUrl.origin;
    await finishConnect(
      resolved.entry,
      resolved.secretValues,
      { code: params.get("code"), state: params.get("state"), iss: params.get("iss"), error: params.get("error"), errorDescription: params.get("error_description") },
      { store: oauthStore(actor.email), origin, fetch: guardedWebFetch({ allowedOrigins: serverPolicyFromEnvironment().allowedPrivateOrigins }) },
    );
    return `Connected ${resolved.entry.name}.`;
  });
  const response = NextResponse.redirect(new URL(`/servers?oauth=${encodeURIComponent(serverId || "callback")}`, appOrigin() ?? request.nextUrl.origin), 303);
  response.cookies.set(oauthResultCookie, note, { httpOnly: true, sameSite: "lax", path: "/servers", maxAge: 60 });
  return response;
}

/** The flow's one line: its own words for what went wrong, never a stack trace. */
async function outcome(work: () => Promise<string>): Promise<string> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && ["OAuthFlowError", "AuthorizationCallbackError", "RegistrySecretError", "ServerEntryError", "DatabaseError"].includes(error.name)) {
      return `Connecting failed: ${error.message.split("\n")[0]}`;
    }
    throw error;
  }
}
