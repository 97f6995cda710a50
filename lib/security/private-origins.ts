/**
 * SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: the private origins (scheme, host and
 * port) node calls, model adapters and MCP servers may reach, e.g. a local
 * Ollama at `http://127.0.0.1:11434`. Exactly those origins and nothing else
 * private: no loopback by default, no metadata service, not the app itself.
 * It replaced SWITCHBOARD_ALLOW_PRIVATE_URLS, a switch that opened every
 * private address at once.
 */
export const privateOriginsVariable = "SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS";
export const retiredPrivateSwitch = "SWITCHBOARD_ALLOW_PRIVATE_URLS";

type Environment = Readonly<Record<string, string | undefined>>;

/** One entry of the variable that is not an origin, with why. */
export class PrivateOriginError extends Error {
  readonly code = "private-origin-invalid";
  constructor(
    readonly entry: string,
    reason: string,
  ) {
    super(`${privateOriginsVariable}: '${entry.slice(0, 200)}' ${reason}; write origins like http://127.0.0.1:11434, comma-separated`);
    this.name = "PrivateOriginError";
  }
}

/**
 * Reads one origin as the URL parser normalizes it (`HTTP://LocalHost:80` →
 * `http://localhost`), so the guard compares like with like. Paths, queries,
 * user names and other schemes are refused rather than silently dropped.
 */
export function parsePrivateOrigin(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new PrivateOriginError(entry, "is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new PrivateOriginError(entry, "is not http or https");
  if (url.username || url.password) throw new PrivateOriginError(entry, "carries a user name or password");
  if (url.pathname !== "/" || url.search || url.hash) {
    throw new PrivateOriginError(entry, "has a path, query or fragment (an origin is scheme, host and port only)");
  }
  return url.origin;
}

/** The listed origins, normalized; throws a PrivateOriginError naming the first bad entry. */
export function allowedPrivateOrigins(environment: Environment = process.env): string[] {
  const raw = environment[privateOriginsVariable] ?? "";
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return [...new Set(entries.map(parsePrivateOrigin))];
}

/** The start-up message when the retired switch is still set, or null. */
export function retiredSwitchMessage(environment: Environment = process.env): string | null {
  if (environment[retiredPrivateSwitch] === undefined) return null;
  return (
    `${retiredPrivateSwitch} was replaced by ${privateOriginsVariable} and is ignored: ` +
    `list the private origins calls may reach, e.g. ${privateOriginsVariable}=http://127.0.0.1:11434`
  );
}

/**
 * Says at start-up what the private-origin settings mean: the retired switch
 * is named as replaced, and a malformed list is reported before any run
 * meets it. Returns false when the list cannot be read.
 */
export function reportPrivateOriginSettings(log: (line: string) => void, environment: Environment = process.env): boolean {
  const retired = retiredSwitchMessage(environment);
  if (retired) log(retired);
  try {
    const origins = allowedPrivateOrigins(environment);
    if (origins.length > 0) log(`private origins calls may reach: ${origins.join(", ")}`);
    return true;
  } catch (error) {
    log((error as Error).message);
    return false;
  }
}
