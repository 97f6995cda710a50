/**
 * lib/security's public surface: the URL guard and the guarded HTTP client,
 * the private origins an administrator allows, credentials bound to their
 * origins, secrets sealed at rest and secret tokens. The proxy and
 * next.config.ts import `security-headers.ts` and `host-allowlist.ts`
 * directly: they run where node: modules do not.
 */
export { CredentialOriginError, assertCredentialOrigins, type BoundCredential } from "./credential-binding";
export { UrlRefusedError, guardedFetch } from "./guarded-fetch";
export { guardedWebFetch } from "./guarded-web-fetch";
export { allowedPrivateOrigins, privateOriginsVariable, reportPrivateOriginSettings } from "./private-origins";
export { newSecret, secretHash, weakTokenReason } from "./secret-tokens";
export { SecretError, secretBox, type SecretBox } from "./secrets";
export { checkUrl, type UrlGuardOptions } from "./url-guard";
