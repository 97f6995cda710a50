import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { docsScreenshot } from "./support/docs-screenshot";
import { RunPage } from "./pages/run-page";

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

/** The URL, headers and body of a curl line as the webhook panel writes it (`curl -X POST 'url' -H 'name: value' … --data 'body'`). */
function parseCurl(line: string): { url: string; headers: Record<string, string>; body: string } {
  const quoted = [...line.matchAll(/'((?:[^']|'\\'')*)'/g)].map((match) => match[1].replace(/'\\''/g, "'"));
  const [url, ...rest] = quoted;
  const body = rest.pop() ?? "";
  return { url, headers: Object.fromEntries(rest.map((header) => [header.slice(0, header.indexOf(":")), header.slice(header.indexOf(":") + 1).trim()])), body };
}

// Issue 20: set up a webhook on the canvas, copy its curl line, call it, and watch the run appear.
test("a webhook Start: make its URL on the canvas, send the curl line's delivery, and the run appears, once", async ({ page, request }) => {
  const workflowId = await new WorkflowsPage(page).openNewWorkflow(`Webhook ${Date.now().toString(36)}`);
  const canvas = new CanvasPage(page);
  await canvas.select("start");
  const inspector = canvas.inspector;
  await inspector.getByRole("combobox", { name: "Starts" }).selectOption({ label: "On webhook" });
  await inspector.getByRole("combobox", { name: "Webhook signature" }).selectOption({ label: "GitHub (X-Hub-Signature-256)" });
  const panel = inspector.getByRole("region", { name: "Webhook of start" });
  await panel.getByRole("button", { name: "Make the webhook URL" }).click();
  const curl = await panel.getByRole("textbox", { name: "curl line" }).inputValue();
  expect(curl).toMatch(/^curl -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/hooks\/[\w-]+' -H 'content-type: application\/json' -H 'X-Hub-Signature-256: sha256=[0-9a-f]{64}'/i);
  await expect(panel.getByRole("textbox", { name: "Webhook signing secret" })).toHaveValue(/^whsec_/);
  await docsScreenshot(page, "webhook-trigger");

  const delivery = parseCurl(curl);
  const first = await request.post(delivery.url, { headers: delivery.headers, data: delivery.body });
  expect(first.status()).toBe(202);
  const { runId } = (await first.json()) as { runId: string };
  // The same delivery again (a provider's retry): the first run's id, nothing started.
  const again = await request.post(delivery.url, { headers: delivery.headers, data: delivery.body });
  expect(await again.json()).toEqual({ runId, duplicate: true });

  const run = new RunPage(page);
  await run.goto(runId);
  await expect(run.status).toContainText("completed", { timeout: 30_000 });
  await page.goto(`/workflows/${workflowId}/triggers`);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("table")).toContainText("a repeat of a delivery already received");
  await expect(page.getByRole("link", { name: runId.slice(0, 8) }).first()).toBeVisible();
  await docsScreenshot(page, "webhook-deliveries");
});

