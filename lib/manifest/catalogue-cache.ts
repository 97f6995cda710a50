import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Catalogue } from "./catalogue";
import { lintNodes } from "./lint";
import { nodesVersion } from "./nodes-version";

export interface CatalogueCacheOptions {
  /**
   * Check the folder's files before reusing what was read: true on every
   * call (an edited node takes effect on the next run); `{ everyMs }` at
   * most that often (an edited node takes effect on the runs started that
   * long after the edit; checking costs a walk of the folder, several ms
   * for the shipped catalogue, too much for every run of a busy worker).
   * Default: every second everywhere but in production, where nodes/ is
   * part of the deployment and does not change.
   */
  checkFiles?: boolean | { everyMs: number };
}

interface Entry {
  version: string;
  /** When the folder was last found at this version (performance.now()). */
  checkedAt: number;
  catalogue: Promise<Catalogue>;
}

/** How often, by default, a folder is checked for edits outside production. */
export const defaultCheckEveryMs = 1000;

const entries = new Map<string, Entry>();

/**
 * The linted catalogue of a nodes/ folder, read and linted once per version
 * of the folder and shared by every run after that (a run's fixed cost is
 * then the engine's, not the catalogue's). Callers treat it as read-only.
 * A read that fails is not kept, so the next call tries again.
 *
 * @example const catalogue = await cachedCatalogue("nodes");
 */
export function cachedCatalogue(nodesDir: string, options: CatalogueCacheOptions = {}): Promise<Catalogue> {
  const key = path.resolve(nodesDir);
  const checkFiles = options.checkFiles ?? (process.env.NODE_ENV === "production" ? false : { everyMs: defaultCheckEveryMs });
  const known = entries.get(key);
  if (known && !checkFiles) return known.catalogue;
  const now = performance.now();
  if (known && typeof checkFiles === "object" && now - known.checkedAt < checkFiles.everyMs) return known.catalogue;
  const version = checkFiles || !known ? nodesVersion(key) : known.version;
  if (known && known.version === version) {
    known.checkedAt = now;
    return known.catalogue;
  }
  const catalogue = lintNodes(nodesDir);
  const entry = { version, checkedAt: now, catalogue };
  entries.set(key, entry);
  catalogue.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return catalogue;
}

/** Forgets every cached catalogue (tests that rewrite a folder within one clock tick). */
export function clearCatalogueCache(): void {
  entries.clear();
}
