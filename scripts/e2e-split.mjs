/**
 * How scripts/e2e-shards.mjs deals the browser-test files out to its shards:
 * longest first (e2e/durations.json), each to the shard with the least time so
 * far, so the shards end together. Splitting by count, as Playwright's
 * --shard does, left one shard running alone for a minute or more.
 *
 * Plain JavaScript: it runs before anything can be transpiled.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The files in `shards` lists: every file exactly once, longest first to the
 * least-loaded shard; a file without a figure counts as the median of the
 * others (10 s when there are none). Each list is in path order.
 *
 * @example splitByDuration(["e2e/a.spec.ts", "e2e/b.spec.ts"], { "e2e/a.spec.ts": 30 }, 2) // [["e2e/a.spec.ts"], ["e2e/b.spec.ts"]]
 */
export function splitByDuration(files, seconds, shards) {
  const known = files.map((file) => seconds[file]).filter((value) => typeof value === "number" && value >= 0).sort((a, b) => a - b);
  const fallback = known.length > 0 ? known[Math.floor(known.length / 2)] : 10;
  const weight = (file) => (typeof seconds[file] === "number" && seconds[file] >= 0 ? seconds[file] : fallback);
  const lists = Array.from({ length: shards }, () => ({ files: [], total: 0 }));
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const least = lists.reduce((best, list) => (list.total < best.total ? list : best));
    least.files.push(file);
    least.total += weight(file);
  }
  return lists.map((list) => list.files.sort());
}

/** The browser-test files under `dir` (`*.spec.ts`, relative to `root`), the kill drill's left out: it has a config of its own. */
export function specFiles(root, dir = "e2e") {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".spec.ts") && entry.name !== "embedded-drill.spec.ts")
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** e2e/durations.json's figures; none when it is missing or unreadable. */
export function readDurations(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, "e2e", "durations.json"), "utf8")).seconds ?? {};
  } catch {
    return {};
  }
}

/** A Playwright file filter (a regular expression) that matches this file only. */
export function fileFilter(file) {
  return `(^|/)${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
}
