import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { ServerFormPage, ServerToolsPage } from "./pages/servers-page";

/** The serious and critical axe-core violations on the page, each as `rule: the first elements it names`. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ")}`);
}

/** Every page of the app, with what shows it has rendered. */
const pages: { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: "/", ready: (page) => expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible() },
  { path: "/workflows/demo", ready: (page) => expect(page.getByRole("group", { name: /node agent\)$/ })).toBeVisible() },
  { path: "/runs", ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  { path: "/nodes", ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  { path: "/servers", ready: (page) => expect(page.getByRole("heading", { level: 1, name: "MCP servers" })).toBeVisible() },
  { path: "/servers/new", ready: (page) => expect(page.getByRole("form")).toBeVisible() },
  { path: "/credentials", ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  { path: "/no-such-page", ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
];

test.describe("accessibility (axe-core): no serious or critical violations", () => {
  for (const entry of pages) {
    test(`${entry.path}`, async ({ page }) => {
      await page.goto(entry.path);
      await entry.ready(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test("a run's page, after a run of the demo", async ({ page }) => {
    await page.goto("/workflows/demo");
    await page.getByRole("toolbar", { name: "Canvas commands" }).getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    await dialog.getByLabel(/^question/).fill("convert 5 kilometre to mile");
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Start run" }).click();
    const run = page.getByRole("region", { name: "Current run" });
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
    // The canvas after a run: outputs, the result and the run panel are on it.
    expect(await seriousViolations(page)).toEqual([]);
    await run.getByRole("link", { name: "Open the run’s trace" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /^Run of / })).toBeVisible();
    await page.getByRole("button", { name: "Show call convertUnits" }).click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a server's page with its tools, and the edit form", async ({ page }) => {
    const id = `axe-everything-${Date.now().toString(36)}`;
    const form = new ServerFormPage(page);
    await form.gotoNew();
    await form.fill({ Name: `Axe ${id}`, Id: id, "Catalogue entry": "everything" });
    await form.submit();
    await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${id}$`));
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/servers/${id}`);
    await expect(new ServerToolsPage(page).tool(`Axe ${id}`, "echo")).toBeVisible({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/servers/${id}/edit`);
    await expect(page.getByRole("form")).toBeVisible();
    // The stored command line is shown as the catalogue entry it matches.
    await expect(new ServerFormPage(page).field("Catalogue entry")).toHaveValue("everything");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
