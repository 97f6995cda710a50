import { expect, test } from "@playwright/test";
import { docsScreenshot } from "./support/docs-screenshot";
import { ComparePage } from "./pages/compare-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";

test.describe("forking a run", () => {
  let pageProblems: string[] = [];
  test.beforeEach(({ page }) => {
    pageProblems = [];
    page.on("console", (message) => {
      if (message.type() === "error") pageProblems.push(message.text());
    });
    page.on("pageerror", (error) => pageProblems.push(error.message));
  });
  test.afterEach(() => {
    expect(pageProblems).toEqual([]);
  });

  test("forks the demo at its tool call with an edited result, follows the fork, and the diff parts at that call", async ({ page }) => {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    const parent = await runs.run({ question: "Convert 26.2 mile to kilometre" });
    const run = new RunPage(page);
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });

    // The model's turns are rows of the tree, each with its model and tokens, around the call the first asked for.
    await expect(run.turnRow(1)).toContainText("asked for convertUnits");
    await expect(run.turnRow(2)).toContainText("answered");
    await expect(run.bar("Model turn 1")).toBeVisible();

    await run.showCall("convertUnits").click();
    await expect(run.callResult("convertUnits")).toContainText("42.1648128");
    await run.forkFrom("call convertUnits's result").click();
    const editor = run.forkEditor.getByRole("textbox", { name: /What the step answered/ });
    await expect(editor).toBeFocused();

    // Bad input is refused where it was typed, and nothing is created.
    await editor.fill("{ not json");
    await run.forkEditor.getByRole("button", { name: "Fork run with this edit" }).click();
    await expect(run.forkEditor.getByRole("alert")).toContainText("The result is not JSON");
    await expect(editor).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(new RegExp(`/runs/${parent}$`));

    await editor.fill(JSON.stringify({ result: 1000, unit: "kilometre" }));
    await run.forkEditor.getByRole("button", { name: "Fork run with this edit" }).click();
    await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(parent));
    const fork = page.url().split("/").at(-1)!;
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
    await expect(run.forks).toContainText(`Forked from run ${parent.slice(0, 8)} at step agent#1/t1/c0`);
    await run.showCall("convertUnits").click();
    await expect(run.callResult("convertUnits")).toContainText("1000");

    await run.forks.getByRole("link", { name: "Compare with parent" }).click();
    await expect(page).toHaveURL(`/runs/compare?a=${parent}&b=${fork}`);
    const compare = new ComparePage(page);
    await expect(compare.divergence).toHaveText(/^First divergence at step \d+ of \d+: agent#1\/call 1 \(call converter\/convertUnits: result changed\)\.$/);
    await expect(compare.step("agent#1/call 1")).toContainText("First divergence: Changed");
    await expect(compare.differences("agent#1/call 1")).toContainText("result.result 42.1648128 → 1000");
    await docsScreenshot(page, "fork-compare", { fullPage: true });

    // The parent lists its fork.
    await run.goto(parent);
    await expect(run.forks.getByRole("link", { name: `Run ${fork.slice(0, 8)}` })).toBeVisible();
  });

  test("forks at a model turn with a different system prompt from the run page, and /runs lists the fork under its parent", async ({ page }) => {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    const parent = await runs.run({ question: "Convert 10 kilometre to mile" });
    const run = new RunPage(page);
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });

    await run.forkFrom("model turn 2's answer").click();
    const choices = run.forkEditor.getByRole("group", { name: "What the fork changes" });
    // The demo's agent (offline-agent) has a system prompt but no model setting: only what fits is offered.
    await expect(choices.getByRole("radio")).toHaveCount(3);
    await expect(choices.getByRole("radio", { name: "A different model for agent" })).toHaveCount(0);
    await choices.getByRole("radio", { name: "A different system prompt for agent" }).check();
    const prompt = run.forkEditor.getByRole("textbox", { name: "System prompt for agent from this step on" });
    await expect(prompt).toHaveValue("You are a helpful assistant.");
    await expect(run.forkEditor).toContainText("replays this run up to this model turn, which is asked again");

    // An empty prompt is refused where it was typed; nothing is created.
    await prompt.fill("  ");
    await run.forkEditor.getByRole("button", { name: "Fork run with this prompt" }).click();
    await expect(run.forkEditor.getByRole("alert")).toContainText("The system prompt is empty");
    await expect(prompt).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(new RegExp(`/runs/${parent}$`));

    await docsScreenshot(page, "fork-prompt");
    await prompt.fill("Answer in miles, briefly.");
    await run.forkEditor.getByRole("button", { name: "Fork run with this prompt" }).click();
    await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(parent));
    const fork = page.url().split("/").at(-1)!;
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
    await expect(run.forks).toContainText(`Forked from run ${parent.slice(0, 8)} at step agent#1/t2 with a different system prompt for agent: “Answer in miles, briefly.”`);
    // Turn 1 and its call were replayed; turn 2 was asked again.
    await expect(run.turnRow(2)).toBeVisible();

    // /runs: the fork sits right under its parent, saying where and with what; the parent's button folds it away.
    await runs.goto("demo");
    const order = await runs.rowOrder();
    expect(order.indexOf(fork.slice(0, 8))).toBe(order.indexOf(parent.slice(0, 8)) + 1);
    await expect(runs.runRow(fork)).toContainText("fork at agent#1/t2 with a different system prompt for agent");
    const toggle = runs.forkToggle(parent);
    await expect(toggle).toHaveAccessibleName(`Hide the fork of run ${parent.slice(0, 8)}`);
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await toggle.click();
    await expect(runs.runRow(fork)).toHaveCount(0);
    await expect(toggle).toHaveAccessibleName(`Show the fork of run ${parent.slice(0, 8)}`);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(runs.runRow(fork)).toBeVisible();
    await docsScreenshot(page, "runs-forks", { fullPage: true });
  });
});
