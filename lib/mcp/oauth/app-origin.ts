type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The app's own origin, for OAuth and sign-in callbacks and the client ID
 * metadata document: SWITCHBOARD_PUBLIC_URL, else SWITCHBOARD_APP_URL, else
 * the address `npm start` serves (`http://127.0.0.1:$PORT`, 3000 by default).
 * Never a request header: a Host (or X-Forwarded-*) header is whatever the
 * client sent, and what goes into a redirect URI must be what the operator
 * configured. Null when the configured value is not an http(s) URL.
 */
export function appOrigin(environment: Environment = process.env): string | null {
  const configured = environment.SWITCHBOARD_PUBLIC_URL?.trim() || environment.SWITCHBOARD_APP_URL?.trim() || `http://127.0.0.1:${environment.PORT?.trim() || "3000"}`;
  try {
    const url = new URL(configured);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}
