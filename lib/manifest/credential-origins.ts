import type { NodeManifest } from "./catalogue";
import type { CredentialRequirement } from "./schemas";

/** The official API origin of each AI SDK adapter that has one (openai-compatible has none: it is wherever its base URL says). */
const providerOrigins: Readonly<Record<string, string>> = {
  openai: "https://api.openai.com",
  anthropic: "https://api.anthropic.com",
};

/**
 * Where a node type's credential may be sent by default: the origins the
 * manifest declares for it (`origins`); otherwise the origins its calls are
 * written to reach — a literal `https://host` at the start of a call's URL,
 * and the origin of the config default a URL template starts from
 * (`{{ config.baseUrl }}/chat/completions` with baseUrl's default
 * https://api.openai.com/v1) — and the adapter's provider API. A person adds
 * others when storing the credential; a workflow's owner approves others.
 *
 *   defaultCredentialOrigins(openaiAgent, openaiAgent.interface.credentials[0]) // ["https://api.openai.com"]
 */
export function defaultCredentialOrigins(manifest: NodeManifest, requirement: CredentialRequirement): string[] {
  if (requirement.origins?.length) return [...new Set(requirement.origins.map(normalOrigin).filter((origin): origin is string => origin !== null))];
  const origins = new Set<string>();
  const defaults = manifest.config?.configSchema.properties ?? {};
  for (const template of callUrls(manifest)) {
    const literal = normalOrigin(template.trim().match(/^https?:\/\/[^/?#\s{}'"]+/)?.[0] ?? "");
    if (literal) origins.add(literal);
    for (const [, property] of template.matchAll(/config\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const fallback = defaults[property]?.default;
      const origin = typeof fallback === "string" ? normalOrigin(fallback) : null;
      if (origin) origins.add(origin);
    }
  }
  const adapter = manifest.toolExchange?.adapter;
  if (adapter && providerOrigins[adapter]) origins.add(providerOrigins[adapter]);
  return [...origins].sort();
}

/**
 * Where a node with this config sends its calls, and so its credentials:
 * for each call URL, its literal origin or the origin of the config value
 * it starts from (the node's own baseUrl, an imported document's included).
 *
 *   callOrigins(openaiAgent, { baseUrl: "https://attacker.example/v1" }) // ["https://attacker.example"]
 */
export function callOrigins(manifest: NodeManifest, config: Readonly<Record<string, unknown>>): string[] {
  const origins = new Set<string>();
  for (const template of callUrls(manifest)) {
    const literal = normalOrigin(template.trim().match(/^https?:\/\/[^/?#\s{}'"]+/)?.[0] ?? "");
    if (literal) origins.add(literal);
    for (const [, property] of template.matchAll(/config\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const value = config[property];
      const origin = typeof value === "string" ? normalOrigin(value) : null;
      if (origin) origins.add(origin);
    }
  }
  const adapter = manifest.toolExchange?.adapter;
  if (adapter && adapter !== "offline") {
    const base = typeof config.baseUrl === "string" ? normalOrigin(config.baseUrl) : (providerOrigins[adapter] ?? null);
    if (base) origins.add(base);
  }
  return [...origins].sort();
}

/** `https://Api.Example.com:443/v1` → `https://api.example.com`; null for anything not http(s). */
export function normalOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** Every URL template of the node's calls (run, service methods, OAuth token URLs), found by key wherever they sit. */
function callUrls(manifest: NodeManifest): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    for (const [key, item] of Object.entries(value)) {
      if ((key === "url" || key === "tokenUrl") && typeof item === "string") found.push(item);
      else walk(item);
    }
  };
  walk(manifest.run);
  walk(manifest.service);
  return found;
}
