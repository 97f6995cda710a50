import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { startOidcProviderFixture, type OidcProviderFixture } from "../testing/auth/oidc-provider.fixture";
import { oidcFixtureClient, oidcFixturePort } from "../playwright.config";
import { addPerson } from "./support/accounts";

// Single sign-on against the local OpenID provider fixture the e2e server is configured with
// (playwright.config.ts): it signs in whoever `provider.person` says, at once.

let provider: OidcProviderFixture;

/** The serious and critical axe-core violations on the page (as e2e/accessibility.spec.ts counts them). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ")}`);
}


test.beforeAll(async () => {
  provider = await startOidcProviderFixture({ port: oidcFixturePort, clientId: oidcFixtureClient.id, clientSecret: oidcFixtureClient.secret });
});

test.afterAll(async () => {
  await provider.close();
});

test("a person an owner added signs in with the provider; an unknown email and a swapped nonce are refused with the reason", async ({ page, browser, baseURL }) => {
  await addPerson(page, "sso-runner@e2e.test", "runner", "sso runner password");
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const visitor = await context.newPage();

  // Known, verified email: signed in with the account's own role.
  provider.person = { email: "SSO-Runner@e2e.test", emailVerified: true };
  await visitor.goto("/sign-in");
  await visitor.getByRole("link", { name: `Sign in with ${oidcFixtureClient.name}` }).click();
  await expect(visitor.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
  await visitor.goto("/account");
  await expect(visitor.getByRole("link", { name: "sso-runner@e2e.test · runner" })).toHaveAttribute("title", "Signed in as sso-runner@e2e.test (runner)");
  expect(provider.tokenRequests).toBe(1);
  await context.clearCookies();

  // An email with no account: refused, nothing created.
  provider.person = { email: "stranger@e2e.test", emailVerified: true };
  await visitor.goto("/sign-in");
  await visitor.getByRole("link", { name: `Sign in with ${oidcFixtureClient.name}` }).click();
  await expect(visitor.getByRole("alert").filter({ hasText: "Single sign-on did not sign you in" })).toContainText("stranger@e2e.test has no account here. Ask an owner to add you on the People page");
  await expect(visitor).toHaveURL(/\/sign-in$/);
  expect(await seriousViolations(visitor)).toEqual([]);

  // An ID token with another sign-in's nonce: refused.
  provider.person = { email: "sso-runner@e2e.test", emailVerified: true };
  provider.next = { nonce: "nonce-of-another-sign-in" };
  await visitor.getByRole("link", { name: `Sign in with ${oidcFixtureClient.name}` }).click();
  await expect(visitor.getByRole("alert").filter({ hasText: "Single sign-on did not sign you in" })).toContainText("its nonce is not the one this sign-in sent");
  await visitor.goto("/account");
  await expect(visitor).toHaveURL(/\/sign-in/);
  await context.close();

  // The owner's list has no account for the stranger.
  await page.goto("/accounts");
  await expect(page.getByText("stranger@e2e.test")).toHaveCount(0);
});
