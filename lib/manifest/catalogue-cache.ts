import path from "node:path";
import type { Catalogue } from "./catalogue";
import { lintNodes } from "./lint";
import { nodesVersion } from "./nodes-version";

export interface CatalogueCacheOptions {
  /**
   * Check the folder's files before reusing what was read (true: an edited
   * node takes effect on the next run). Default: everywhere but in
   * production, where nodes/ is part of the deployment and does not change.
   */
  checkFiles?: boolean;
}

interface Entry {
  version: string;
  catalogue: Promise<Catalogue>;
}

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
  const checkFiles = options.checkFiles ?? process.env.NODE_ENV !== "production";
  const known = entries.get(key);
  if (known && !checkFiles) return known.catalogue;
  const version = checkFiles || !known ? nodesVersion(key) : known.version;
  if (known && known.version === version) return known.catalogue;
  const catalogue = lintNodes(nodesDir);
  const entry = { version, catalogue };
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
