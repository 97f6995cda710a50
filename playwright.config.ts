import { defineConfig } from "@playwright/test";
import { e2eCasesDir, e2eDatabaseUrl, e2ePort as port, ownerStorageState } from "./e2e/support/e2e-server";
import { chromiumArgs, chromiumPath } from "./e2e/support/chromium-path";

/** e2e/oauth.spec.ts's local authorization server and protected MCP server (testing/mcp/oauth-server.fixture.ts). */
export const oauthFixturePort = port + 1000;
/** e2e/sso.spec.ts's OpenID provider (testing/auth/oidc-provider.fixture.ts): the app's single sign-on points at it. Clear of the shards' own ports (port, port + 1, …). */
export const oidcFixturePort = port + 2000;
export const oidcFixtureClient = { id: "switchboard-e2e", secret: "e2e-oidc-client-secret", name: "Test SSO" };

// Debian's Chromium (its headless shell when installed: e2e/support/chromium-path.ts): Playwright's own browser download cannot work offline.
export default defineConfig({
  testDir: "e2e",
  // Per port: Playwright empties its output folder at start, so two shards must not share one.
  outputDir: `test-results/e2e-${port}`,
  fullyParallel: false,
  workers: 1,
  // A failing test runs once more, recording a trace (below), and still fails the run: a test that
  // passes only on its second try is flaky, and a flaky test fails CI. Tracing every test to keep
  // the failures' traces took ~22% of the browser tests' CPU.
  retries: 1,
  failOnFlakyTests: true,
  reporter: process.env.CI ? "line" : "list",
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "on-first-retry",
    launchOptions: {
      executablePath: chromiumPath(),
      args: chromiumArgs,
    },
  },
  // Sign-in is required: the setup project creates the owner on the fresh database through the
  // one-screen set-up and saves the session; every spec starts signed in as that owner.
  projects: [
    { name: "owner-setup", testMatch: /owner\.setup\.ts$/ },
    // The embedded kill drill has a config of its own (playwright.drill.config.ts): no browser, no app server of this suite's.
    { name: "app", dependencies: ["owner-setup"], testIgnore: /embedded-drill\.spec\.ts$/, use: { storageState: ownerStorageState } },
  ],
  webServer: {
    // The database prepared as `npm start` prepares it (`npm run db:migrate`, from the command bundle), then the app.
    command: `node scripts/cli.mjs migrate && next start -H 127.0.0.1 -p ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      DATABASE_URL: e2eDatabaseUrl,
      SWITCHBOARD_RESET_DATABASE: "true",
      // The app's own address for OAuth and sign-in callbacks (never taken from a request's Host header).
      SWITCHBOARD_APP_URL: `http://127.0.0.1:${port}`,
      // The programs stdio servers may be in these tests (the reference server, a broken one, one with a parameter).
      SWITCHBOARD_STDIO_CATALOGUE: "e2e/fixtures/e2e.stdio.json",
      NEXT_TELEMETRY_DISABLED: "1",
      // "Keep as test" writes case files here, not into the repository's tests/cases.
      SWITCHBOARD_CASES_DIR: e2eCasesDir,
      // The OAuth and OpenID fixtures listen on 127.0.0.1: those origins are allowed past the private-address rule.
      SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: `http://127.0.0.1:${oauthFixturePort},http://127.0.0.1:${oidcFixturePort}`,
      SWITCHBOARD_OIDC_ISSUER: `http://127.0.0.1:${oidcFixturePort}`,
      SWITCHBOARD_OIDC_CLIENT_ID: oidcFixtureClient.id,
      SWITCHBOARD_OIDC_CLIENT_SECRET: oidcFixtureClient.secret,
      SWITCHBOARD_OIDC_NAME: oidcFixtureClient.name,
    },
  },
});
