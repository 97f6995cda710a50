import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";

test.use({ viewport: { width: 1440, height: 900 } });

// Issue 20: a Start on a webhook or a schedule, set up in the inspector.
test("a Start's trigger shows its own settings, refuses a bad cron expression by name, and lists the next five fire times", async ({ page }) => {
  await new WorkflowsPage(page).openNewWorkflow(`Triggers ${Date.now().toString(36)}`);
  const canvas = new CanvasPage(page);
  await canvas.select("start");
  const inspector = canvas.inspector;
  await expect(inspector.getByRole("group", { name: "Input fields" })).toBeVisible();

  await inspector.getByRole("combobox", { name: "Starts" }).selectOption({ label: "On webhook" });
  await expect(inspector.getByRole("combobox", { name: "Webhook signature" })).toHaveValue("0");
  await expect(inspector.getByRole("combobox", { name: "Webhook signature" }).locator("option:checked")).toHaveText("Standard Webhooks (webhook-signature)");
  await expect(inspector.getByRole("group", { name: "Input fields" })).toHaveCount(0);
  await expect(inspector.getByRole("textbox", { name: "Cron expression" })).toHaveCount(0);

  await inspector.getByRole("combobox", { name: "Starts" }).selectOption({ label: "On schedule" });
  await expect(inspector.getByRole("combobox", { name: "Webhook signature" })).toHaveCount(0);
  const cron = inspector.getByRole("textbox", { name: "Cron expression" });
  await cron.fill("0 25 * * *");
  await expect(inspector.locator('[data-field="cron"]')).toContainText('Cron expression: "0 25 * * *" is not a valid cron expression: Invalid value for hour: 25');
  await expect(inspector.getByRole("region", { name: "Next fire times of start" })).toHaveCount(0);

  await cron.fill("0 9 * * 1-5");
  await inspector.getByRole("textbox", { name: "Time zone" }).fill("Europe/Berlin");
  await expect(inspector.locator('[data-field="cron"]')).not.toContainText("not a valid");
  const times = inspector.getByRole("region", { name: "Next fire times of start" }).getByRole("listitem");
  await expect(times).toHaveCount(5);
  await expect(times.first()).toContainText("09:00:00");
  await expect(times.first()).toContainText("Europe/Berlin");
});
