import { defineConfig } from "@playwright/test";

// The embedded kill drill (e2e/embedded-drill.spec.ts): `npm start` itself, SIGKILLed and started again
// (docs/runs.md, "Drills"). No browser and no app server of the suite's: the drill starts its own, on a free
// port, from the production build, which must be fresh. `npm test` runs it right after `next build`, beside the
// unit suite; `npm run drill:embedded` at full size.
export default defineConfig({
  testDir: "e2e",
  testMatch: /embedded-drill\.spec\.ts$/,
  outputDir: "test-results/embedded-drill",
  workers: 1,
  // Its hooks get what the browser tests' get (the test sets its own, longer limit).
  timeout: 60_000,
  // As the browser tests (playwright.config.ts): a failure runs once more, and a pass on the second try fails the run.
  retries: 1,
  failOnFlakyTests: true,
  reporter: process.env.CI ? "line" : "list",
});
