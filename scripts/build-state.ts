/**
 * Whether `next build`'s output (.next) is missing or older than the sources
 * it compiles: `npm start` builds first when it is, and the embedded kill
 * drill (e2e/embedded-drill.spec.ts) refuses to start without a fresh build.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** What `next build` compiles: a change to any of these makes the build stale. */
const sources = ["app", "components", "lib", "nodes", "next.config.ts", "package.json", "tsconfig.json"];
const skippedFolders = new Set(["node_modules", ".next", "data"]);

/** The newest modification time (ms) under `entry`, 0 when it does not exist. */
function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) {
    if (skippedFolders.has(child)) continue;
    newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

/** `root`: the project folder. */
export function buildIsStale(root: string): { stale: boolean; reason: string } {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return { stale: true, reason: "no build yet" };
  const built = statSync(buildId).mtimeMs;
  const changed = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
  return changed > built ? { stale: true, reason: "sources changed since the last build" } : { stale: false, reason: "" };
}
