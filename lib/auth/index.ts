import "server-only";

/**
 * lib/auth's public surface for the app: who is asking (sessions, API
 * callers, endpoint bearers), the role checks every action, route and page
 * makes first, sign-in (passwords, OpenID Connect) and the owner's set-up.
 * Server only. Six named files are public too, for code that must not
 * load "server-only": `owner-setup.ts` (the command lines), `role-table.ts`
 * (the docs generator; it loads TypeScript), `oidc/oidc.ts` (the start-up
 * hook), `public-action.ts` (the webhook route, which a benchmark runs
 * outside Next), and `endpoint-bearer.ts` with `sessions.ts` (the MCP
 * endpoint's route, which its process tests run outside Next, where the
 * page checks' `next/navigation` cannot load).
 */
export { apiError, authorizeApiCaller, type ApiCaller } from "./api-caller";
export { appBearerLimits, appWidgetVisitorLimits } from "./app-rate-limits";
export { clientAddress, trustedProxiesFromEnvironment } from "./client-address";
export { authorizeEndpointBearer, sameOrigin } from "./endpoint-bearer";
export { OidcSettingsError, OidcSignInError, accountForEmail, authorizationRequest, completeSignIn, discover, oidcConfig } from "./oidc/oidc";
export { keepPendingSignIn, oidcErrorCookie, oidcStateCookie, takePendingSignIn } from "./oidc/pending-sign-ins";
export { OwnerSetupError, createFirstOwner, emailProblem, prepareOwner, setupOpenWithoutCode } from "./owner-setup";
export { hashPassword, passwordProblem, verifyPassword } from "./passwords";
export { publicAction } from "./public-action";
export type { WidgetLimitReached } from "./rate-limits";
export { currentActor, may, requirePageRole, requireRole, requireRouteRole, servedOverHttps } from "./require-role";
export { parseRole, roleAtLeast, roleDescriptions } from "./roles";
export type { Actor, Role } from "./roles";
export { safeNext } from "./safe-next";
export { accounts, endSession, sessionCookieName, startSession } from "./sessions";
export { checkSignIn } from "./sign-in";
