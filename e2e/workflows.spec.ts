import { expect, test } from "@playwright/test";
import { WorkflowsPage } from "./pages/workflows-page";

test.describe("workflows list", () => {
  test("shows the seeded demo workflow", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();

    await expect(workflows.heading).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" })).toHaveAttribute("aria-current", "page");

    const demo = workflows.workflow("Demo: unit conversion agent");
    await expect(demo).toBeVisible();
    await expect(demo).toContainText("offline model");
    await expect(demo).toContainText("Last updated");
    await expect(workflows.workflowLink("Demo: unit conversion agent")).toHaveAttribute("href", "/workflows/demo");
  });

  test("the header navigates to the node catalogue", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Nodes" }).click();
    await expect(page).toHaveURL(/\/nodes$/);
    await expect(page.getByRole("heading", { level: 1, name: "Node catalogue" })).toBeVisible();
  });
});
