/**
 * Builds the app (`next build`) only when the build is missing or older
 * than its sources (scripts/build-state.ts), as `npm start` would.
 * `npm run drill` runs it before the embedded drill, which needs a fresh build.
 *
 *   npx tsx scripts/ensure-build.ts
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "./build-state";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { stale, reason } = buildIsStale(root);
if (!stale) {
  console.log("build: up to date");
} else {
  console.log(`build: building the app (${reason})...`);
  const nextBin = path.join(path.dirname(createRequire(import.meta.url).resolve("next/package.json")), "dist", "bin", "next");
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, stdio: "inherit" });
  if (build.status !== 0) console.error(`build: next build failed (exit ${build.status ?? build.signal}); see its output above.`);
  process.exit(build.status ?? 1);
}
