/**
 * npm run bench — runs every bench/*.bench.ts in turn, each in its own
 * process, and prints what it prints. Each bench measures against a baseline
 * in its own process, so figures are ratios first, times second.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const folder = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const benches = readdirSync(folder)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(folder, file)], { stdio: "inherit" });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
