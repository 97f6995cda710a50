import { parseTemplate, type ParsedTemplate } from "../../sandbox/template-syntax";

/**
 * The origin a `return` URL expression fixes: its first operand must be a
 * string literal holding the whole origin and the `/`, `?` or `#` after it,
 * e.g. `return 'https://api.airtable.com/v0/' + config.baseId`. Undefined
 * when the expression could choose its host.
 */
export function expressionOrigin(source: string): string | undefined {
  const match = /^\s*return\s+\(?\s*(['"`])(https?:\/\/[^'"`/?#$\\\s]+)[/?#]/i.exec(source);
  if (!match) return undefined;
  try {
    return new URL(match[2]).origin;
  } catch {
    return undefined;
  }
}

/** How a `return` URL expression fixes its host: a literal origin, or the node's config in one of the forms a template URL allows. */
export type ExpressionUrl =
  | { kind: "literal"; origin: string }
  /** `return config.apiUrl + '/v1/…'`: a base URL from config. */
  | { kind: "config-base"; name: string }
  /** `return 'https://' + config.host + '/…'`, or `'https://bedrock-runtime.' + config.region + '.amazonaws.com/…'` (one DNS label). */
  | { kind: "config-host"; scheme: string; prefix: string; name: string; suffix: string };

export function expressionUrl(source: string): ExpressionUrl | undefined {
  const origin = expressionOrigin(source);
  if (origin) return { kind: "literal", origin };
  const base = /^\s*return\s+\(?\s*config\.([A-Za-z_$][\w$]*)\b(?!\s*\()/.exec(source);
  if (base) return { kind: "config-base", name: base[1] };
  const host = /^\s*return\s+(['"])(https?):\/\/([a-z0-9.-]*)\1\s*\+\s*config\.([A-Za-z_$][\w$]*)\s*\+\s*(['"])([a-z0-9.-]*)[/?#]/i.exec(source);
  if (host) return { kind: "config-host", scheme: host[2].toLowerCase(), prefix: host[3], name: host[4], suffix: host[6] };
  return undefined;
}

export type UrlVerdict = { ok: true } | { ok: false; rule: "url-host-templated" | "url-scheme"; message: string };

/**
 * Checks that a call's URL fixes its scheme and host: a literal
 * `http(s)://host/...`; a literal scheme with the host from config,
 * `https://{{ config.<name> }}/...`; or one leading `{{ config.<name> }}`
 * (the node's config, set by the workflow author) followed by a path, query
 * or nothing.
 * Templates after that fill the path and query only; the runtime checks the
 * origin again after rendering.
 */
export function checkUrlOrigin(url: string): UrlVerdict {
  let parsed: ParsedTemplate;
  try {
    parsed = parseTemplate(url);
  } catch {
    return { ok: true }; // template-syntax reports it
  }
  if (parsed.kind === "expression") {
    if (expressionUrl(url)) return { ok: true };
    return { ok: false, rule: "url-host-templated", message: "a `return` URL expression must start with its literal origin, e.g. return 'https://api.example.com/' + …, or take its host from the node's config (return config.apiUrl + '/…', return 'https://' + config.host + '/…'), so nothing it computes can choose the host" };
  }
  const parts = parsed.kind === "literal" ? [{ kind: "text" as const, text: parsed.text }] : parsed.kind === "whole" ? [{ kind: "path" as const, path: parsed.path }] : parsed.parts;
  const [first, second] = parts;
  if (first.kind === "path") {
    if (first.path.segments[0] !== "config" || first.path.segments.length !== 2) {
      return { ok: false, rule: "url-host-templated", message: `the URL's host would come from {{ ${first.path.text} }}; only a leading {{ config.<name> }} (the node's config) may set the scheme and host` };
    }
    if (second && !(second.kind === "text" && /^[/?#]/.test(second.text))) {
      return { ok: false, rule: "url-host-templated", message: `after {{ ${first.path.text} }} the URL must continue with a literal '/', '?' or nothing, so no template can extend the host` };
    }
    return { ok: true };
  }
  const text = first.text;
  if (/^https?:\/\/$/i.test(text) && second?.kind === "path") {
    // `https://{{ config.host }}/...`: the host is the node's config, which the workflow author sets.
    const third = parts[2];
    if (second.path.segments[0] !== "config" || second.path.segments.length !== 2) {
      return { ok: false, rule: "url-host-templated", message: `the URL's host would come from {{ ${second.path.text} }}; only {{ config.<name> }} may set the host` };
    }
    if (third && !(third.kind === "text" && /^[/?#:]/.test(third.text))) {
      return { ok: false, rule: "url-host-templated", message: `after the host {{ ${second.path.text} }} the URL must continue with a literal '/', ':', '?' or nothing` };
    }
    return { ok: true };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (!scheme) return { ok: false, rule: "url-scheme", message: `the URL must start with http:// or https:// (or {{ config.<name> }}); got '${url}'` };
  if (!/^https?$/i.test(scheme[1])) return { ok: false, rule: "url-scheme", message: `only http and https URLs are allowed; got '${scheme[1]}:'` };
  const afterScheme = text.slice(scheme[0].length);
  const hostEnd = afterScheme.search(/[/?#]/);
  if (hostEnd === -1 && parts.length > 1) {
    return { ok: false, rule: "url-host-templated", message: "a template follows the host directly, so it could change the host; put a literal '/' before it" };
  }
  if ((hostEnd === -1 ? afterScheme : afterScheme.slice(0, hostEnd)) === "") {
    return { ok: false, rule: "url-scheme", message: "the URL has no host" };
  }
  return { ok: true };
}
