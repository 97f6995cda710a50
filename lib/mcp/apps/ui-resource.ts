import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The largest UI resource shown (bytes of its HTML, UTF-8); a larger one falls back to the call's text. */
export const maxUiResourceBytes = 2 * 1024 * 1024;

/** What the resource's `_meta.ui.csp` allows the frame to reach (MCP Apps' McpUiResourceCsp). */
export interface AppCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** A tool's MCP App, checked and ready to frame: the HTML and the policy its frame's response carries. */
export interface ToolAppView {
  kind: "app";
  uri: string;
  /** The resource's HTML, as the server gave it. */
  html: string;
  csp: AppCsp;
  /** The Content-Security-Policy header the frame's document is served with (`appContentSecurityPolicy`). */
  policy: string;
  /** The resource asks for a visible border (`_meta.ui.prefersBorder`). */
  prefersBorder: boolean;
}

/** Why a tool's UI is not shown: the call's text content is shown instead, with this reason. */
export interface ToolAppFallback {
  kind: "text";
  uri: string;
  reason: string;
}

export type ToolAppOutcome = ToolAppView | ToolAppFallback;

/**
 * The `ui://` resource a tool declares (`_meta.ui.resourceUri`, or the older
 * flat `_meta["ui/resourceUri"]`), or null when it declares none. A value
 * that is not a `ui://` URI is a declaration the host cannot follow: it is
 * returned as an error so the trace can say why nothing is framed.
 */
export function uiResourceUriOf(tool: { _meta?: Record<string, unknown> } | undefined): { uri: string } | { error: string } | null {
  const meta = tool?._meta;
  if (!meta || typeof meta !== "object") return null;
  const ui = meta.ui as { resourceUri?: unknown } | undefined;
  const declared = (ui && typeof ui === "object" ? ui.resourceUri : undefined) ?? meta[RESOURCE_URI_META_KEY];
  if (declared === undefined) return null;
  if (typeof declared !== "string" || !declared.startsWith("ui://")) return { error: `the tool's _meta.ui.resourceUri is ${JSON.stringify(declared)}, not a ui:// URI` };
  return { uri: declared };
}

/**
 * Checks what resources/read gave for a tool's UI: one content item with the
 * URI asked for, the MCP App HTML type (`text/html;profile=mcp-app`), text
 * (or base64 blob) no larger than `maxBytes`. Anything else falls back to
 * text, with the reason in words.
 */
export function checkUiResource(uri: string, contents: readonly unknown[], options: { maxBytes?: number } = {}): ToolAppOutcome {
  const maxBytes = options.maxBytes ?? maxUiResourceBytes;
  const fallback = (reason: string): ToolAppFallback => ({ kind: "text", uri, reason });
  const item = contents.find((candidate) => isRecord(candidate) && candidate.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!isRecord(item)) return fallback(contents.length === 0 ? `the server returned no content for ${uri}` : `the server returned no content item for ${uri}`);
  const mimeType = typeof item.mimeType === "string" ? item.mimeType : "";
  if (normalMime(mimeType) !== normalMime(RESOURCE_MIME_TYPE)) {
    return fallback(`the UI resource is ${mimeType ? `of type "${mimeType}"` : "of no declared type"}, not "${RESOURCE_MIME_TYPE}" (HTML)`);
  }
  const html = textOf(item);
  if (html === null) return fallback("the UI resource has neither text nor a base64 blob");
  const bytes = Buffer.byteLength(html, "utf8");
  if (bytes > maxBytes) return fallback(`the UI resource is ${formatBytes(bytes)}, over the limit of ${formatBytes(maxBytes)}`);
  const ui = isRecord(item._meta) && isRecord(item._meta.ui) ? item._meta.ui : {};
  const csp = cspOf(ui.csp);
  return { kind: "app", uri, html, csp, policy: appContentSecurityPolicy(csp), prefersBorder: ui.prefersBorder === true };
}

/**
 * The frame's policy, sent as its document's Content-Security-Policy
 * header: nothing but its own inline code and styles, data and blob images,
 * and exactly the origins its resource declares (`_meta.ui.csp`:
 * connect-src for connectDomains; script, style, image, font and media
 * sources for resourceDomains; frame-src for frameDomains; base-uri for
 * baseUriDomains). Forms, objects and workers go nowhere. `sandbox
 * allow-scripts` gives the document an opaque origin even when it is opened
 * outside its iframe, and only this app's own pages may frame it.
 */
export function appContentSecurityPolicy(csp: AppCsp): string {
  const list = (origins: string[], fallback = "'none'") => (origins.length ? origins.join(" ") : fallback);
  const resources = csp.resourceDomains.join(" ");
  const with_ = (base: string) => (resources ? `${base} ${resources}` : base);
  return [
    "default-src 'none'",
    with_("script-src 'unsafe-inline'"),
    with_("style-src 'unsafe-inline'"),
    with_("img-src data: blob:"),
    with_("font-src data:"),
    with_("media-src data: blob:"),
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    `base-uri ${list(csp.baseUriDomains)}`,
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
    "frame-ancestors 'self'",
    "sandbox allow-scripts",
  ].join("; ");
}

/** The response headers of an app frame's document (GET /app-frame/<run id>): its own policy, no sniffing, no referrer, never cached. */
export function appFrameHeaders(policy: string): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": policy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
}

/** An origin the policy may name: scheme://host[:port], a wildcard subdomain allowed; anything else (quotes, spaces, keywords, paths with `;`) is dropped. */
const originPattern = /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?\/?$/i;

function cspOf(value: unknown): AppCsp {
  const field = (name: string) => {
    const list = isRecord(value) && Array.isArray(value[name]) ? (value[name] as unknown[]) : [];
    return list.filter((origin): origin is string => typeof origin === "string" && originPattern.test(origin));
  };
  return { connectDomains: field("connectDomains"), resourceDomains: field("resourceDomains"), frameDomains: field("frameDomains"), baseUriDomains: field("baseUriDomains") };
}

function textOf(item: Record<string, unknown>): string | null {
  if (typeof item.text === "string") return item.text;
  if (typeof item.blob === "string") return Buffer.from(item.blob, "base64").toString("utf8");
  return null;
}

function normalMime(type: string): string {
  return type.toLowerCase().replace(/\s+/g, "");
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
