import { expect, test as setup } from "@playwright/test";
import { owner, ownerStorageState } from "./support/accounts";

// The first start on a fresh database: every page leads to the one-screen owner set-up.
setup("the first start creates the owner on one screen", async ({ page }) => {
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { level: 1, name: "Set up Switchboard" })).toBeVisible();
  const form = page.getByRole("form", { name: "Create the owner account" });
  await form.getByLabel("Email").fill(owner.email);
  await form.getByLabel("Password").fill("short");
  await form.getByRole("button", { name: "Create the owner account" }).click();
  await expect(form.getByText("Use at least 10 characters for the password.")).toBeVisible();
  await form.getByLabel("Email").fill(owner.email);
  await form.getByLabel("Password").fill(owner.password);
  await form.getByRole("button", { name: "Create the owner account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
  await expect(page.getByRole("link", { name: `${owner.email} · owner` })).toBeVisible();
  // Once there is an owner the set-up screen is gone.
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/(sign-in)?$/);
  await page.context().storageState({ path: ownerStorageState });
});
