/**
 * The headers every response carries (next.config.ts headers()). The CSP
 * keeps scripts, styles, images and connections to this origin and forbids
 * framing (clickjacking). Next's own inline bootstrap scripts and React
 * Flow's inline styles need 'unsafe-inline' (a nonce would force every page
 * dynamic and is not done yet). 'unsafe-eval' because the canvas checks node
 * settings in the browser with ajv, which compiles each schema with
 * `new Function` (precompiled standalone validators would remove it).
 */
export function contentSecurityPolicy(options: { development?: boolean; frameAncestors?: string } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.development ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    options.frameAncestors ?? "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: { development?: boolean } = {}): Array<{ key: string; value: string }> {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(options) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ];
}

/**
 * A chat widget's frame (/embed/<id>, set by the proxy): the same headers,
 * except that the pages of the widget's allowed origins may frame it (CSP
 * `frame-ancestors <origins>`; no X-Frame-Options, which cannot list them).
 */
export function embedSecurityHeaders(frameAncestors: string, options: { development?: boolean } = {}): Array<{ key: string; value: string }> {
  return securityHeaders(options)
    .filter((header) => header.key !== "X-Frame-Options")
    .map((header) => (header.key === "Content-Security-Policy" ? { key: header.key, value: contentSecurityPolicy({ ...options, frameAncestors }) } : header));
}
