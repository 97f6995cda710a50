import path from "node:path";
import { defineConfig } from "vitest/config";

/** The MCP conformance suite (npm run test:conformance): slower, so apart from the unit tests. */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.conformance.ts", "testing/**/*.conformance.ts"],
    environment: "node",
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
