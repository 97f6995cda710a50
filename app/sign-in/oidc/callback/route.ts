import { NextResponse, type NextRequest } from "next/server";
import { accountForEmail, accounts, completeSignIn, discover, oidcConfig, oidcErrorCookie, OidcSettingsError, OidcSignInError, oidcStateCookie, publicAction, safeNext, servedOverHttps, sessionCookieName, startSession, takePendingSignIn } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { appOrigin } from "@/lib/mcp";

/**
 * The OpenID provider sends the person back here: the state must be this
 * browser's (its cookie), the code is exchanged with the PKCE verifier, the
 * ID token is checked (issuer, audience, signature, expiry, nonce), and the
 * verified email must be an account's (or, with
 * SWITCHBOARD_OIDC_AUTO_CREATE_VIEWERS=true, becomes a viewer). Then a
 * session starts as with a password. Any failure goes back to the sign-in
 * page, which says why.
 */
export async function GET(request: NextRequest) {
  publicAction("single sign-on's callback: only a state this browser started, a valid ID token and a known verified email start a session");
  const pending = takePendingSignIn(request.cookies.get(oidcStateCookie)?.value);
  const fail = (message: string) => {
    const response = NextResponse.redirect(new URL("/sign-in", appOrigin() ?? request.url), 303);
    response.cookies.set(oidcErrorCookie, message.slice(0, 500), { httpOnly: true, sameSite: "lax", path: "/sign-in", maxAge: 120 });
    response.cookies.delete({ name: oidcStateCookie, path: "/sign-in/oidc" });
    return response;
  };
  try {
    const config = oidcConfig();
    if (!config) return NextResponse.json({ error: "single sign-on is not configured" }, { status: 404 });
    const metadata = await discover(config);
    const { email } = await completeSignIn(config, metadata, pending?.redirectUri ?? "", pending?.pending ?? null, request.nextUrl.searchParams);
    const account = await accountForEmail(accounts(), config, email);
    if (account.created) console.warn(`sign-in: ${email} signed in with ${config.name} for the first time and was added as a viewer (SWITCHBOARD_OIDC_AUTO_CREATE_VIEWERS)`);
    const session = await startSession(account.id);
    const response = NextResponse.redirect(new URL(safeNext(pending!.pending.next), appOrigin() ?? request.url), 303);
    response.cookies.set(sessionCookieName, session.value, { httpOnly: true, sameSite: "lax", secure: await servedOverHttps(), path: "/", expires: session.expiresAt });
    response.cookies.delete({ name: oidcStateCookie, path: "/sign-in/oidc" });
    response.cookies.delete({ name: oidcErrorCookie, path: "/sign-in" });
    return response;
  } catch (error) {
    if (error instanceof OidcSignInError || error instanceof DatabaseError) return fail(error.message);
    if (error instanceof OidcSettingsError) return fail(`Single sign-on is not set up right: ${error.message}.`);
    throw error;
  }
}
