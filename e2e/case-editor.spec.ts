import { readFile, rm } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { docsScreenshot } from "./support/docs-screenshot";
import { CanvasPage } from "./pages/canvas-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { e2eCasesDir } from "./support/e2e-server";

// The app's cases folder (SWITCHBOARD_CASES_DIR in playwright.config.ts).
const caseFile = `${e2eCasesDir}/5-km-in-miles-edited-prompt.case.json`;

/**
 * A copy of the demo, imported under a name of its own: its prompt is edited
 * and its versions saved here, and its cases are its own, so the demo the
 * other specs run stays as it ships. Answers the copy's id.
 */
async function importDemoCopy(page: Page): Promise<string> {
  const demo = JSON.parse(await readFile("e2e/fixtures/demo-workflow.json", "utf8"));
  const name = `Case editor ${Date.now().toString(36)}`;
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  await workflows.importJson("case-editor.json", JSON.stringify({ ...demo, name }));
  await workflows.importStatus.getByRole("link", { name: `Open ${name}` }).click();
  await page.waitForURL(/\/workflows\/[^/?]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
}

test("a kept case fails on the canvas after the agent's system prompt changes, and passes once the case editor loosens it", async ({ page }) => {
  test.setTimeout(120_000);
  await rm(caseFile, { force: true });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));

  // No cases yet: the Test button says where they come from.
  const workflowId = await importDemoCopy(page);
  const canvas = new CanvasPage(page);
  await canvas.goto(workflowId);
  await canvas.command("Test").click();
  const results = page.getByRole("dialog", { name: "Test cases" });
  await expect(results).toContainText('press "Keep as test"');
  await results.getByRole("button", { name: "Close" }).click();

  // Pin a run of the demo as a case.
  const runs = new RunsPage(page);
  await runs.goto(workflowId);
  await runs.run({ question: "Convert 5 kilometre to mile" });
  const run = new RunPage(page);
  await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
  await run.overview.getByRole("button", { name: "Keep as test" }).click();
  const keep = run.overview.getByRole("form", { name: "Keep this run as a test case" });
  await keep.getByRole("textbox", { name: "Case name" }).fill("5 km in miles, edited prompt");
  await keep.getByRole("button", { name: "Keep" }).click();
  await expect(keep).toContainText("5-km-in-miles-edited-prompt.case.json");

  // In a second tab, edit the agent's system prompt on the canvas and press Test: the case fails at the agent, which is marked.
  const canvasTab = await page.context().newPage();
  canvasTab.on("pageerror", (error) => problems.push(error.message));
  const canvasTwo = new CanvasPage(canvasTab);
  const resultsTwo = canvasTab.getByRole("dialog", { name: "Test cases" });
  await canvasTwo.goto(workflowId);
  await canvasTwo.select("agent");
  await canvasTwo.inspector.getByRole("textbox", { name: /^System prompt/ }).fill("You convert units, tersely.");
  await canvasTwo.command("Test").click();
  await expect(resultsTwo).toContainText("1 of 1 case failed.", { timeout: 60_000 });
  await expect(resultsTwo).toContainText("first divergence: agent#1/");
  expect(await axeViolations(canvasTab)).toEqual([]);
  await resultsTwo.getByRole("button", { name: "Show node agent" }).click();
  await expect(canvasTwo.node("agent").locator(".wf-node")).toHaveClass(/test-failing/);
  await expect(canvasTwo.node("agent")).toContainText("test failing");
  await docsScreenshot(canvasTab, "canvas-test-failing");

  // Back on the run page, loosen the system prompt of the agent's requests in the case editor.
  await page.bringToFront();
  const editor = run.overview.getByRole("form", { name: "Edit the test case's assertions" });
  await editor.getByLabel("Applies to").selectOption({ label: "Model requests of agent" });
  await editor.getByLabel("Check", { exact: true }).selectOption({ label: "Matches a pattern" });
  await editor.getByLabel("Field (optional)").fill("system");
  await editor.getByLabel("Pattern (regular expression)").fill("units");
  await editor.getByRole("button", { name: "Add to the case" }).click();
  await expect(editor).toContainText("Saved to 5-km-in-miles-edited-prompt.case.json.");
  await docsScreenshot(page, "case-editor");
  expect(await axeViolations(page)).toEqual([]);

  // Test again on the canvas, the prompt still edited: the case passes, and no node is marked.
  await canvasTab.bringToFront();
  await canvasTwo.command("Test").click();
  await expect(resultsTwo).toContainText("All 1 case passed.", { timeout: 60_000 });
  await resultsTwo.getByRole("button", { name: "Close" }).click();
  await expect(canvasTwo.node("agent").locator(".wf-node")).not.toHaveClass(/test-failing/);

  // Saving a version runs the cases against it after the save; the versions list shows the result when it is stored.
  await canvasTwo.command("Versions").click();
  const versions = canvasTab.getByRole("dialog", { name: "Versions" });
  await versions.getByRole("textbox", { name: "Version note" }).fill("terser prompt");
  await versions.getByRole("button", { name: "Save version" }).click();
  const saved = versions.getByRole("list", { name: "Saved versions" }).getByRole("listitem").filter({ hasText: "terser prompt" });
  await expect(saved).toContainText("Tests: 1 of 1 passed", { timeout: 60_000 });
  expect(problems).toEqual([]);
  await rm(caseFile, { force: true });
});
