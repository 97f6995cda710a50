/**
 * Which Host headers the app answers. A page on another site can make the
 * browser send requests to 127.0.0.1 under its own name (DNS rebinding);
 * answering only the names the app is really reached by closes that door.
 * Loopback names are always allowed; SWITCHBOARD_ALLOWED_HOSTS adds more
 * (comma-separated, e.g. `switchboard.example.com,10.0.0.5:3000`).
 */
export function hostAllowed(hostHeader: string | null, extra: readonly string[] = configuredHosts()): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  if (name === "localhost" || name === "127.0.0.1" || name === "[::1]") return true;
  return extra.some((allowed) => allowed === host || allowed === name);
}

export function configuredHosts(environment: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return (environment.SWITCHBOARD_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}
