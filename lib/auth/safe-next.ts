const base = "http://app.invalid";

/**
 * Where to send a person after signing in: a path of this app, or "/". The
 * value is resolved the way a browser resolves a redirect (so tabs and
 * newlines a URL parser drops cannot turn `/\t/evil.example` into another
 * host), and a result that would still read as another host (`//…`, `/\…`)
 * is refused too.
 *
 * @example
 * safeNext("/runs?status=failed") // "/runs?status=failed"
 * safeNext("/\t/evil.example")     // "/"
 */
export function safeNext(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return "/";
  }
  if (url.origin !== base) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") || path.startsWith("/\\") ? "/" : path;
}
