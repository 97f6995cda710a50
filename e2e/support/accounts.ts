import { expect, type Page } from "@playwright/test";

/** The owner the setup project creates on the fresh e2e database (playwright.config.ts). */
export const owner = { email: "owner@e2e.test", password: "e2e owner password" };

/** Where the owner's signed-in session is saved; every spec starts from it. */
export const ownerStorageState = "e2e/.auth/owner.json";

/** Signs in on /sign-in and waits for the page it leads to. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}
