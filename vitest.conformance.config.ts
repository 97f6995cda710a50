import path from "node:path";
import { defineConfig } from "vitest/config";

/** The MCP conformance suite (npm run test:conformance): slower, so apart from the unit tests. */
export default defineConfig({
  // server-only as Next resolves it for server code (vitest.config.ts says why).
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "node_modules", "server-only", "empty.js") } },
  test: {
    include: ["lib/**/*.conformance.ts", "testing/**/*.conformance.ts"],
    environment: "node",
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
