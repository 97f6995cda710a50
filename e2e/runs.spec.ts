import { expect, test } from "@playwright/test";
import { seedLargeRun, seedTaintedRun, seedTurnRun, startSeededRun } from "./fixtures/seed-runs";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { docsScreenshot } from "./support/docs-screenshot";

test.describe("runs and their traces", () => {
  // Hydration mismatches and script errors show up as console errors: none is expected.
  let pageProblems: string[] = [];
  test.beforeEach(({ page }) => {
    pageProblems = [];
    page.on("console", (message) => {
      if (message.type() === "error" && !/status of 404/.test(message.text())) pageProblems.push(message.text());
    });
    page.on("pageerror", (error) => pageProblems.push(error.message));
  });
  test.afterEach(() => {
    expect(pageProblems).toEqual([]);
  });

  test("runs the demo workflow, follows it live, filters the trace and opens a tool call", async ({ page }) => {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    await expect(runs.heading).toHaveText("Runs of Demo: unit conversion agent");

    const runId = await runs.run({ question: "Convert 26.2 mile to kilometre" });
    const run = new RunPage(page);
    await expect(run.heading).toHaveText("Run of Demo: unit conversion agent");
    // The page polls while the run runs; it ends on its own.
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
    await expect(run.overview.getByRole("region", { name: "Run output" })).toContainText("42.1648128");

    // The tree: node runs, with the agent's one tool call under it; every row has a waterfall bar.
    await expect(run.nodeToggle("agent")).toHaveAttribute("aria-expanded", "true");
    await expect(run.showCall("convertUnits")).toBeVisible();
    await expect(run.bar("Node agent")).toBeVisible();
    await expect(run.bar("Call convertUnits")).toHaveAttribute("aria-label", /^Call convertUnits: starts at [\d.]+ m?s, takes [\d.]+ m?s, ends at [\d.]+ m?s$/);
    await expect(run.filterCount).toHaveText("1 tool call");

    // Filters: by tool, errors only, by node.
    await run.toolFilter.selectOption("convertUnits");
    await expect(run.filterCount).toHaveText("1 of 1 tool call match");
    await expect(run.showCall("convertUnits")).toBeVisible();
    await run.errorsOnly.check();
    await expect(run.filterCount).toHaveText("0 of 1 tool call match");
    await expect(page.getByText("Nothing matches these filters.")).toBeVisible();
    await run.errorsOnly.uncheck();
    await run.nodeFilter.selectOption("end");
    await expect(page.getByText("Nothing matches these filters.")).toBeVisible();
    await run.nodeFilter.selectOption("agent");
    await expect(run.showCall("convertUnits")).toBeVisible();
    await run.clearFilters.click();
    await expect(run.filterCount).toHaveText("1 tool call");

    // Collapse and expand the agent's calls.
    await run.nodeToggle("agent").click();
    await expect(run.showCall("convertUnits")).toBeHidden();
    await run.nodeToggle("agent").click();

    // Open the call: its arguments and result as pretty JSON.
    await run.showCall("convertUnits").click();
    await expect(run.hideCall("convertUnits")).toHaveAttribute("aria-expanded", "true");
    await expect(run.callArguments("convertUnits")).toContainText('"from": "mile"');
    await expect(run.callArguments("convertUnits")).toContainText('"value": 26.2');
    await expect(run.callResult("convertUnits")).toContainText('"result": 42.1648128');
    await expect(run.callResult("convertUnits")).toContainText('"formula": "kilometre = mile × 1.609344"');

    await docsScreenshot(page, "trace", { fullPage: true });

    // The run is listed under its workflow.
    await run.allRunsLink.click();
    await expect(runs.runRow(runId)).toContainText("completed");
    await expect(runs.runRow(runId)).toContainText("1 call");
  });

  test("refuses an input the Start does not accept, at the field, and starts nothing", async ({ page }) => {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    await runs.runButton.click();
    await expect(runs.formError).toContainText('The input needs "question"');
    await expect(runs.input("question")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/runs\?workflow=demo$/);
  });

  test("follows a running run live: new rows appear, and it settles when the run ends", async ({ page }) => {
    const live = await startSeededRun();
    try {
      const run = new RunPage(page);
      await run.goto(live.runId);
      await expect(run.status).toContainText("Running");
      await expect(run.filterCount).toHaveText("0 tool calls");

      // Rows written after the page loaded arrive with the next poll of GET /api/runs/<id> and load as they come into view.
      await live.toolCall("listUnits");
      await expect(run.showCall("listUnits")).toBeVisible();
      await live.toolCall("convertUnits", { isError: true, error: "cannot convert kilogram to metre" });
      await expect(run.showCall("convertUnits")).toBeVisible();
      await expect(run.filterCount).toHaveText("2 tool calls");

      // Cancel goes through the database, so it reaches a run whichever process runs it: the request is taken.
      // This seeded run has no worker to act on it, so it goes on until it ends.
      await run.cancelButton.click();
      await expect(run.cancelButton).toBeEnabled();
      await expect(run.cancelError).toHaveCount(0);

      await live.end();
      await expect(run.status).toContainText("Completed in");
      await expect(run.cancelButton).toBeHidden();
      await run.errorsOnly.check();
      await expect(run.filterCount).toHaveText("1 of 2 tool calls match");
    } finally {
      await live.close();
    }
  });

  test("shows where external content went: tainted node runs, the Taint section, each source opening its call", async ({ page }) => {
    const runId = await seedTaintedRun();
    const run = new RunPage(page);
    await run.goto(runId);
    await expect(run.status).toContainText("Completed in");
    await expect(run.nodeTaint("researcher")).toHaveText("tainted: answer");
    await expect(run.showCall("search").locator("xpath=..")).toContainText("tainted");

    const findings = run.taintedItem("memory key", "findings");
    await expect(findings).toContainText("written by researcher");
    await expect(run.taintedItem("output", "researcher.answer")).toBeVisible();
    await expect(run.taintedItem("output", "end.result")).toBeVisible();
    await expect(run.taint.getByRole("list", { name: "Came in through" })).toContainText("web-search / search");

    // A source opens its call, even from a collapsed node run: expanded, focused, arguments shown.
    await run.nodeToggle("researcher").click();
    await expect(run.showCall("search")).toBeHidden();
    await findings.getByRole("button", { name: "web-search / search: show the call in the trace" }).click();
    await expect(run.hideCall("search")).toBeFocused();
    await expect(run.callArguments("search")).toContainText('"query": "switchboard"');
  });

  test("answers 404 for a run that does not exist", async ({ page, request }) => {
    const response = await page.goto("/runs/no-such-run");
    expect(response?.status()).toBe(404);
    const api = await request.get("/api/runs/no-such-run");
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ error: 'There is no run "no-such-run".' });
  });

  test("keeps a 10,000-call trace virtualized: few rows in the DOM, every row reachable", async ({ page }) => {
    const runId = await seedLargeRun(10_000);
    const run = new RunPage(page);
    await run.goto(runId);
    await expect(run.status).toContainText("Completed in");
    await expect(run.filterCount).toHaveText("10,000 tool calls");

    // 10,000 calls, their node run, and the run's wait in the queue (its row is written a millisecond before its node starts).
    const first = run.renderedRows().first();
    await expect(first).toHaveAttribute("aria-setsize", "10002");
    expect(await run.renderedRows().count()).toBeLessThan(80);

    await run.scrollTraceToEnd();
    await expect(run.showCall("finalCall")).toBeVisible();
    await expect(run.showCall("finalCall").locator("xpath=ancestor::*[@role='listitem']")).toHaveAttribute("aria-posinset", "10002");
    expect(await run.renderedRows().count()).toBeLessThan(80);

    await run.errorsOnly.check();
    await expect(run.filterCount).toHaveText("103 of 10,000 tool calls match");
    await run.errorsOnly.uncheck();
    await run.toolFilter.selectOption("finalCall");
    await expect(run.filterCount).toHaveText("1 of 10,000 tool calls match");
    await run.showCall("finalCall").click();
    await expect(run.callArguments("finalCall")).toContainText('"index": 9999');
  });

  test("loads a long run's model turns as they scroll into view, each at its place among the calls", async ({ page }) => {
    const runId = await seedTurnRun(1_000);
    const run = new RunPage(page);
    await run.goto(runId);
    await expect(page.getByRole("button", { name: "Show the answer of model turn 1", exact: true })).toBeVisible();
    // The queue's wait, one node run, 500 turns, 500 calls: every row is in the list's size from the first answer.
    await expect(run.renderedRows().first()).toHaveAttribute("aria-setsize", "1002");
    await run.scrollTraceToEnd();
    const lastTurn = page.getByRole("button", { name: "Show the answer of model turn 500", exact: true });
    await expect(lastTurn).toBeVisible();
    await expect(lastTurn.locator("xpath=ancestor::*[@role='listitem']")).toHaveAttribute("aria-posinset", "1001");
    await expect(page.getByText(/Loading model turn/)).toHaveCount(0);
    await lastTurn.click();
    await expect(page.getByRole("region", { name: "Answer of model turn 500" })).toBeVisible();
  });
});
