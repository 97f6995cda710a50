import { NextResponse, type NextRequest } from "next/server";
import { authorizationRequest, discover, keepPendingSignIn, oidcConfig, oidcErrorCookie, OidcSettingsError, OidcSignInError, oidcStateCookie, publicAction, safeNext } from "@/lib/auth";
import { appOrigin } from "@/lib/mcp";

/**
 * "Sign in with <provider>": sends the person to the configured OpenID
 * provider with a fresh state, nonce and PKCE challenge; the callback
 * (./callback) finishes. 404 when single sign-on is not configured.
 */
export async function GET(request: NextRequest) {
  publicAction("single sign-on: sends the person to the configured OpenID provider; the callback checks state, nonce and the ID token");
  const back = (message: string) => {
    const response = NextResponse.redirect(new URL("/sign-in", appOrigin() ?? request.url), 303);
    response.cookies.set(oidcErrorCookie, message.slice(0, 500), { httpOnly: true, sameSite: "lax", path: "/sign-in", maxAge: 120 });
    return response;
  };
  let config;
  try {
    config = oidcConfig();
  } catch (error) {
    if (error instanceof OidcSettingsError) return back(`Single sign-on is not set up right: ${error.message}.`);
    throw error;
  }
  if (!config) return NextResponse.json({ error: "single sign-on is not configured" }, { status: 404 });
  const origin = appOrigin();
  if (!origin) return back("The app cannot tell its own address for the sign-in callback: set SWITCHBOARD_PUBLIC_URL.");
  try {
    const metadata = await discover(config);
    const next = request.nextUrl.searchParams.get("next") ?? "/";
    const redirectUri = `${origin}/sign-in/oidc/callback`;
    const { url, pending } = authorizationRequest(config, metadata, redirectUri, safeNext(next));
    keepPendingSignIn({ pending, redirectUri });
    const response = NextResponse.redirect(url, 303);
    response.cookies.set(oidcStateCookie, pending.state, {
      httpOnly: true,
      sameSite: "lax",
      secure: origin.startsWith("https:"),
      path: "/sign-in/oidc",
      maxAge: 600,
    });
    return response;
  } catch (error) {
    if (error instanceof OidcSignInError) return back(error.message);
    throw error;
  }
}
