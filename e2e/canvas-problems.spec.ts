import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";

test.use({ viewport: { width: 1440, height: 900 } });

async function openFixture(page: import("@playwright/test").Page, name: string, change: (workflow: Record<string, any>) => void = () => undefined) {
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  const fixture = JSON.parse(await readFile("e2e/fixtures/echo-agent-workflow.json", "utf8"));
  change(fixture);
  await workflows.importJson("problems.json", JSON.stringify({ ...fixture, name }));
  await workflows.importStatus.getByRole("link", { name: `Open ${name}` }).click();
  const canvas = new CanvasPage(page);
  await expect(canvas.node("agent")).toBeVisible();
  return canvas;
}

// Deliver 3: problems that help.
test.describe("problems that help", () => {
  test("a node left unconnected and unconfigured warns in words and does not block or run; an unconnected service warns", async ({ page }) => {
    const canvas = await openFixture(page, `Leftovers ${Date.now().toString(36)}`);
    await canvas.addFromPalette("HTTP Request");
    await canvas.addFromPalette("Weather");
    await canvas.select("http-request");
    const problems = canvas.inspector.getByRole("region", { name: "Problems of http-request" });
    await expect(problems).toContainText('Base URL is required (node "http-request")');
    await expect(problems).toContainText("It is not connected, so it does not stop a run.");
    await expect(problems).toContainText('Node "http-request" is not connected to anything, so it does not run.');
    await expect(problems).not.toContainText("must have required property");
    await expect(canvas.node("http-request")).toContainText(/\d+ warnings?/);
    await canvas.select("weather");
    await expect(canvas.inspector.getByRole("region", { name: "Problems of weather" })).toContainText('No agent uses the tools of "weather"');
    await expect(canvas.toolbar.getByRole("button", { name: /^Show problems: 0 errors, \d+ warnings$/ })).toBeVisible();

    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    await dialog.getByLabel(/^question/).fill("hello");
    await dialog.getByRole("button", { name: "Start run" }).click();
    const run = page.getByRole("region", { name: "Current run" });
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
    await expect(canvas.node("agent").locator(".wf-run-status")).toHaveText("completed");
    // The leftover did not run.
    await expect(canvas.node("http-request").locator(".wf-run-status")).toHaveCount(0);
  });

  test("an agent with no End warns on the node and in the Run dialog what will be lost; the run page says it ended with no result", async ({ page }) => {
    const canvas = await openFixture(page, `No end ${Date.now().toString(36)}`, (workflow) => {
      workflow.nodes = workflow.nodes.filter((node: { type: string }) => node.type !== "end");
      workflow.edges = workflow.edges.filter((edge: { target: string }) => edge.target !== "end");
    });
    await expect(canvas.node("agent")).toContainText("1 warning");
    await canvas.select("agent");
    await expect(canvas.inspector.getByRole("region", { name: "Problems of agent" })).toContainText('What "agent" produces is lost: nothing takes its output "answer" anywhere');

    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    const losses = dialog.getByRole("list", { name: "Nodes whose outputs reach nothing" });
    await expect(losses).toContainText("Add an End and connect one to it");
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeEnabled();
    await dialog.getByLabel(/^question/).fill("hello");
    await dialog.getByRole("button", { name: "Start run" }).click();
    const run = page.getByRole("region", { name: "Current run" });
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
    await run.getByRole("link", { name: "Open the run’s trace" }).click();
    await expect(page.getByRole("note").filter({ hasText: "This run ended with no result" })).toBeVisible();
  });

  test("while the workflow has errors, Start run is disabled and lists them, each a link that selects its node", async ({ page }) => {
    // (An import with errors is refused, so the error is made on the canvas.)
    const canvas = await openFixture(page, `Errors ${Date.now().toString(36)}`);
    await canvas.select("agent");
    await canvas.inspector.getByLabel("Max turns").fill("99");
    await expect(canvas.node("agent")).toContainText("1 error");
    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeDisabled();
    const errors = dialog.getByRole("list", { name: "Errors to fix before running" });
    await expect(errors).toContainText('Max turns must be at most 20 (node "agent")');
    await errors.getByRole("link", { name: "agent" }).click();
    await expect(dialog).toBeHidden();
    await expect(canvas.inspector.getByRole("heading", { level: 2 })).toHaveText("Offline agent (built-in test model)");
    await canvas.inspector.getByLabel("Max turns").fill("4");
    await canvas.command("Run").click();
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeEnabled();
    await expect(dialog.getByRole("list", { name: "Errors to fix before running" })).toHaveCount(0);
  });
});
