import { hostAllowed } from "../../security/host-allowlist";

/**
 * The app's own origin, for the OAuth callback: SWITCHBOARD_PUBLIC_URL when
 * set (behind a proxy that rewrites Host), else the request's Host header
 * (which proxy.ts has already checked against the allowed host names) with
 * https when a proxy says so. Null when the Host is not one the app answers.
 */
export function appOrigin(headers: { get(name: string): string | null }, environment: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const configured = environment.SWITCHBOARD_PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  const host = headers.get("host");
  if (!host || !hostAllowed(host)) return null;
  const protocol = headers.get("x-forwarded-proto")?.split(",")[0].trim() === "https" ? "https" : "http";
  return `${protocol}://${host}`;
}
