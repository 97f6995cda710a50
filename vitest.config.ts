import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const folders = ["lib", "testing", "app", "components", "scripts", "docs", "nodes"];
const include = folders.map((folder) => `${folder}/**/*.test.ts`);
const exclude = ["e2e/**", "node_modules/**"];

/**
 * What makes a test file need a module graph of its own: it replaces
 * modules (vi.mock, vi.doMock, vi.resetModules), stubs the environment or
 * globals (vi.stubEnv, vi.stubGlobal), sets process.env (assigned,
 * deleted or Object.assign'd), which modules read once (the app's
 * database, its stdio catalogue), or points the app's own database at a
 * temporary one (temporaryAppDatabase: the modules that opened it keep
 * it). Such a file runs in
 * the "isolated" project, each file afresh; every other file runs in
 * "shared", where a worker keeps the modules it has loaded from one file
 * to the next instead of loading them again for each (the unit suite's
 * imports were a third of its time).
 */
const needsOwnModules = /\bvi\.(mock|doMock|resetModules|stubEnv|stubGlobal)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env|\btemporaryAppDatabase\(/;
const testFiles = folders.flatMap((folder) =>
  readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.split(path.sep).includes("node_modules"))
    .map((file) => path.join(folder, file)),
);
// Fixtures that point the app's database at a temporary one themselves: a test importing one needs its own modules too.
const appDatabaseFixtures = readdirSync(path.join(root, "testing"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".fixture.ts") && /\btemporaryAppDatabase\(/.test(readFileSync(path.join(root, "testing", file), "utf8")))
  .map((file) => path.basename(file, ".ts"));
const isolated = testFiles.filter((file) => {
  const text = readFileSync(path.join(root, file), "utf8");
  return needsOwnModules.test(text) || appDatabaseFixtures.some((fixture) => text.includes(`/${fixture}"`));
});

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // The marker the app's server modules import: its react-server build (empty), as Next resolves it for
      // server code. Its default build throws, which once made every test of such a module mock it (and run isolated).
      "server-only": path.join(root, "node_modules", "server-only", "empty.js"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    // At least two files at once, also on a 2-core machine (vitest's default there is one): most
    // of the suite's time is spent waiting on processes, servers and databases, not on the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The stdio catalogue of the unit tests: the reference server and in-memory doubles (see the file).
    env: { SWITCHBOARD_STDIO_CATALOGUE: path.resolve(root, "testing/mcp/test-doubles.stdio.fixture.json") },
    projects: [
      { extends: true, test: { name: "shared", include, exclude: [...exclude, ...isolated], isolate: false } },
      { extends: true, test: { name: "isolated", include: isolated.length ? isolated : ["(none)"], exclude } },
    ],
  },
});
