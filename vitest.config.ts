import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "testing/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "docs/**/*.test.ts", "nodes/**/*.test.ts"],
    exclude: ["e2e/**", "node_modules/**"],
    environment: "node",
    testTimeout: 20_000,
    // At least two files at once, also on a 2-core machine (vitest's default there is one): most
    // of the suite's time is spent waiting on processes, servers and databases, not on the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The stdio catalogue of the unit tests: the reference server and in-memory doubles (see the file).
    env: { SWITCHBOARD_STDIO_CATALOGUE: path.resolve(import.meta.dirname, "testing/mcp/test-doubles.stdio.fixture.json") },
  },
});
