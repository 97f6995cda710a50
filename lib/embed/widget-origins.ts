/**
 * A chat widget's allowed origins: exact `scheme://host[:port]`, as a
 * browser sends them in `Origin` and as CSP `frame-ancestors` takes them.
 * No paths, wildcards, credentials or queries.
 */

/** The most origins one widget lists. */
export const maxWidgetOrigins = 20;

export type OriginsCheck = { ok: true; origins: string[] } | { ok: false; error: string; field: "origins" };

/**
 * Reads an allowlist typed one origin a line (or separated by commas or
 * spaces); each must be http(s)://host[:port] exactly, nothing after it.
 *
 * @example parseWidgetOrigins("https://shop.example\nhttp://127.0.0.1:8080") // { ok: true, origins: [...] }
 */
export function parseWidgetOrigins(text: string): OriginsCheck {
  const entries = text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return { ok: false, error: "origins: list at least one origin the widget may be shown on, such as https://www.example.com.", field: "origins" };
  if (entries.length > maxWidgetOrigins) return { ok: false, error: `origins: at most ${maxWidgetOrigins} origins; ${entries.length} were given.`, field: "origins" };
  const origins: string[] = [];
  for (const entry of entries) {
    const problem = originProblem(entry);
    if (problem) return { ok: false, error: `origins: "${entry}" ${problem}`, field: "origins" };
    const origin = new URL(entry).origin;
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { ok: true, origins };
}

function originProblem(entry: string): string | null {
  if (entry.includes("*")) return "has a wildcard; list each origin exactly (scheme://host[:port]).";
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return "is not an origin; write it as scheme://host[:port], such as https://www.example.com.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `uses ${url.protocol.replace(":", "")}; only http and https pages can show the widget.`;
  if (url.username || url.password) return "has a user name or password; an origin is scheme://host[:port] only.";
  if (!/^[a-z]+:\/\/[^/?#]+\/?$/i.test(entry)) return "has a path, query or fragment; an origin is scheme://host[:port] only.";
  // The origin goes into a CSP header: a host of letters, digits, dots and hyphens (or an IPv6 literal) and a port, nothing else.
  if (!/^[a-z]+:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i.test(entry)) return "has a character an origin's host cannot have; an origin is scheme://host[:port] only.";
  return null;
}

/** Whether `origin` (a request's Origin header) is one of the widget's. */
export function originAllowed(origins: readonly string[], origin: string | null): boolean {
  if (!origin) return false;
  try {
    return origins.includes(new URL(origin).origin) && new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

/** The CSP `frame-ancestors` directive for a widget's frame: its origins only ('none' when it has none or is disabled). */
export function frameAncestors(origins: readonly string[]): string {
  return `frame-ancestors ${origins.length ? origins.join(" ") : "'none'"}`;
}
