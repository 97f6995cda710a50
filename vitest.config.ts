import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "testing/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "docs/**/*.test.ts", "nodes/**/*.test.ts"],
    exclude: ["e2e/**", "node_modules/**"],
    environment: "node",
    testTimeout: 20_000,
    // The stdio catalogue of the unit tests: the reference server and in-memory doubles (see the file).
    env: { SWITCHBOARD_STDIO_CATALOGUE: path.resolve(import.meta.dirname, "testing/mcp/test-doubles.stdio.fixture.json") },
  },
});
