import { didYouMeanSuffix } from "./did-you-mean";
import type { Problem } from "./problem";
import type { Locator } from "./schema-problems";
import { hasPath, locate, problemAt, type SourceFile, type YamlPath } from "./source-file";

/** `$ref` chains deeper than this are refused (they are a mistake, not a design). */
export const maxRefDepth = 10;

/** Where content brought in by a `$ref` sits in the merged value and in its file. */
interface RefSite {
  at: YamlPath;
  source: SourceFile;
  base: YamlPath;
}

export interface Resolved {
  value: unknown;
  problems: Problem[];
  /** Maps a path of the merged value back to the file and line it came from. */
  locator: Locator;
}

type Frame = { source: SourceFile; path: YamlPath };

/**
 * Resolves every `$ref` in a manifest value against the protocols of
 * nodes/shared/. A lone `$ref` is replaced by what it names; with sibling
 * keys the two are deep-merged: local keys win, lists replace. `stem#a/b`
 * picks a fragment. Cycles, unknown names and chains deeper than 10 are problems.
 *
 * @example resolveRefs(toolExchangeFile, protocols) // { value: {...merged}, problems, locator }
 */
export function resolveRefs(owner: SourceFile, protocols: ReadonlyMap<string, SourceFile>): Resolved {
  const problems: Problem[] = [];
  const sites: RefSite[] = [];

  const resolve = (node: unknown, frame: Frame, mergedPath: YamlPath, chain: string[]): unknown => {
    if (Array.isArray(node)) {
      return node.map((item, index) => resolve(item, { ...frame, path: [...frame.path, index] }, [...mergedPath, index], chain));
    }
    if (node === null || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    const local: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === "$ref") continue;
      local[key] = resolve(value, { ...frame, path: [...frame.path, key] }, [...mergedPath, key], chain);
    }
    if (!("$ref" in record)) return local;
    const target = follow(record.$ref, frame, mergedPath, chain);
    if (target === undefined) return local;
    if (Object.keys(local).length === 0) return target;
    if (!isPlainObject(target)) {
      const place = locate(frame.source, [...frame.path, "$ref"]);
      problems.push(problemAt(frame.source.file, place, "ref-merge", `$ref ${String(record.$ref)} names a value that is not a map, so it cannot take sibling keys`));
      return local;
    }
    return deepMerge(target, local);
  };

  const follow = (reference: unknown, frame: Frame, mergedPath: YamlPath, chain: string[]): unknown => {
    const place = locate(frame.source, [...frame.path, "$ref"]);
    const report = (rule: string, message: string) => {
      problems.push(problemAt(frame.source.file, place, rule, message));
      return undefined;
    };
    if (typeof reference !== "string" || reference.trim() === "") {
      return report("ref-unknown", "$ref must name a protocol of nodes/shared/, e.g. `$ref: openai-chat` or `$ref: openai-chat#call`");
    }
    const [stem, fragment = ""] = reference.trim().split("#", 2);
    const protocol = protocols.get(stem);
    if (!protocol) {
      return report("ref-unknown", `$ref '${stem}' names no protocol in nodes/shared/${didYouMeanSuffix(stem, [...protocols.keys()])}`);
    }
    const key = `${stem}#${fragment}`;
    if (chain.includes(key)) {
      return report("ref-cycle", `$ref cycle: ${[...chain, key].map((link) => link.replace(/#$/, "")).join(" → ")}`);
    }
    if (chain.length >= maxRefDepth) {
      return report("ref-too-deep", `$ref chain is deeper than ${maxRefDepth}: ${[...chain, key].map((link) => link.replace(/#$/, "")).join(" → ")}`);
    }
    const base = fragment.split("/").filter(Boolean);
    const target = valueAt(protocol.value, base);
    if (target === undefined) {
      return report("ref-unknown", `$ref '${reference}': nodes/shared/${stem}.yaml has no fragment '${fragment}'`);
    }
    sites.push({ at: mergedPath, source: protocol, base });
    return resolve(target, { source: protocol, path: base }, mergedPath, [...chain, key]);
  };

  const value = resolve(owner.value, { source: owner, path: [] }, [], []);
  return { value, problems, locator: mergedLocator(owner, sites) };
}

/** Finds which file gave a merged path: the owner first, then each `$ref` in the order met. */
function mergedLocator(owner: SourceFile, sites: readonly RefSite[]): Locator {
  return (path) => {
    if (hasPath(owner, path)) return { source: owner, path };
    for (const site of sites) {
      if (!isPrefix(site.at, path)) continue;
      const inner = [...site.base, ...path.slice(site.at.length)];
      if (hasPath(site.source, inner)) return { source: site.source, path: inner };
    }
    return { source: owner, path };
  };
}

function isPrefix(prefix: YamlPath, path: YamlPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => String(segment) === String(path[index]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Merges `local` over `base`: maps merge key by key, everything else (lists included) is replaced. */
export function deepMerge(base: Record<string, unknown>, local: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(local)) {
    const under = merged[key];
    merged[key] = isPlainObject(under) && isPlainObject(value) ? deepMerge(under, value) : value;
  }
  return merged;
}

function valueAt(value: unknown, path: YamlPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[String(segment)];
  }
  return current;
}
