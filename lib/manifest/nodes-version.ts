import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * A fingerprint of a nodes/ folder: every file's path, size and change
 * time. Two equal versions mean no file was added, removed or edited in
 * between (as far as the file system's clock can tell), so what was read
 * from the folder may be reused. A folder that cannot be read has the
 * version "missing", so a later read reports why.
 *
 * @example nodesVersion("nodes") // "agents/chat/interface.yaml:812:1764582000123.4|…"
 */
export function nodesVersion(nodesDir: string): string {
  let entries: string[];
  try {
    entries = readdirSync(nodesDir, { recursive: true, encoding: "utf8" });
  } catch {
    return "missing";
  }
  const parts: string[] = [];
  for (const entry of entries.sort()) {
    try {
      const stat = statSync(path.join(nodesDir, entry));
      parts.push(stat.isDirectory() ? `${entry}/` : `${entry}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`);
    } catch {
      parts.push(`${entry}:gone`);
    }
  }
  return parts.join("|");
}
