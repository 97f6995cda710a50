import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

/** The owner the setup project creates on the fresh e2e database (playwright.config.ts). */
export const owner = { email: "owner@e2e.test", password: "e2e owner password" };

export { ownerStorageState } from "./e2e-server";

/** Signs in on /sign-in and waits for the page it leads to. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** A browser context of its own (no owner session), signed in as `email`. */
export async function signedInAs(browser: Browser, baseURL: string, email: string, password: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  await signIn(await context.newPage(), email, password);
  return context;
}

/** The owner adds a person with a role on /accounts (the page must be the owner's). */
export async function addPerson(page: Page, email: string, role: "owner" | "editor" | "runner" | "viewer", password: string): Promise<void> {
  await page.goto("/accounts");
  const add = page.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("Role").selectOption(role);
  await add.getByLabel("First password").fill(password);
  await add.getByRole("button", { name: "Add the person" }).click();
  await expect(add.getByRole("status")).toContainText(`Added ${email} as ${role}`);
}
