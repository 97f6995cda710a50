import { parse } from "yaml";
import type { UnoversePackage } from "./unoverse-tree";

/** A credential field that is a connection setting (a host, a region), not a secret: it moves to the node's config. */
export interface ConnectionSetting {
  credential: string;
  field: string;
  /** The config property it becomes. */
  config: string;
  default: string;
  title: string;
}

/**
 * The credential fields a package reads inside `return` expressions that its
 * credential files do not mark secret (host, apiUrl, region, cloud_name).
 * Switchboard never lets a credential choose a host or reach an expression,
 * so these become config properties, with the fallback the expression gave.
 */
export function connectionSettings(pkg: UnoversePackage, texts: readonly string[]): ConnectionSetting[] {
  const found = new Map<string, ConnectionSetting>();
  const all = [...texts, ...[...pkg.shared.values()].map((text) => JSON.stringify(safeParse(text)))];
  for (const text of all) {
    for (const expression of text.match(/"return (?:[^"\\]|\\.)*"/g) ?? []) {
      for (const match of expression.matchAll(/credentials\.([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\s*\|\|\s*'([^']*)')?/g)) {
        const [, credential, field, fallback] = match;
        const property = ((pkg.credentials.get(credential)?.properties as Array<Record<string, unknown>> | undefined) ?? []).find((candidate) => candidate.name === field);
        if (!property || property.secret === true) continue;
        const key = `${credential}.${field}`;
        const known = found.get(key);
        const fallbackValue = fallback ?? (typeof property.default === "string" ? property.default : "");
        if (known) {
          if (!known.default && fallbackValue) known.default = fallbackValue;
          continue;
        }
        found.set(key, { credential, field, config: field, default: fallbackValue, title: typeof property.displayName === "string" ? property.displayName : field });
      }
    }
  }
  return [...found.values()];
}

/** Rewrites one manifest string: moved credential fields read from config, `return 'Bearer ' + credentials.x.y` as a template. */
export function moveConnectionSettings(text: string, settings: readonly ConnectionSetting[]): string {
  const prefixed = /^return\s+'([^'{}]*)'\s*\+\s*credentials\.([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*$/.exec(text);
  if (prefixed) return `${prefixed[1]}{{ credentials.${prefixed[2]}.${prefixed[3]} }}`;
  if (!text.trimStart().startsWith("return ")) return text;
  let result = text;
  for (const setting of settings) {
    const read = `credentials\\.${setting.credential}\\.${setting.field}\\b`;
    result = result.replace(new RegExp(`(?<![\\w$])\\(\\s*${read}\\s*\\|\\|\\s*'[^']*'\\s*\\)`, "g"), `config.${setting.config}`);
    result = result.replace(new RegExp(`String\\(\\s*${read}\\s*\\|\\|\\s*'[^']*'\\s*\\)(\\.replace\\([^()]*\\))*(\\.split\\('/'\\)\\[0\\])?`, "g"), `config.${setting.config}`);
    result = result.replace(new RegExp(read, "g"), `config.${setting.config}`);
  }
  return result;
}

/** An awsSigV4 credential signs for the region the config now holds. */
export function signWithConfigRegion(value: unknown, settings: readonly ConnectionSetting[]): unknown {
  const region = settings.find((setting) => setting.field === "region");
  if (!region) return value;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(walk);
    if (item === null || typeof item !== "object") return item;
    const record = Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    if (record.scheme === "awsSigV4" && record.region === undefined) record.region = `{{ config.${region.config} }}`;
    return record;
  };
  return walk(value);
}

function safeParse(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return null;
  }
}
