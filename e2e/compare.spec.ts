import { expect, test } from "@playwright/test";
import { seedRunPair } from "./fixtures/seed-compare-runs";
import { docsScreenshot } from "./support/docs-screenshot";
import { ComparePage } from "./pages/compare-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";

test.describe("comparing two runs", () => {
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

  /** Runs the demo with one question and waits for it to end; returns the run id. */
  async function runDemo(page: import("@playwright/test").Page, question: string): Promise<string> {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    const runId = await runs.run({ question });
    await expect(new RunPage(page).status).toContainText("Completed in", { timeout: 30_000 });
    return runId;
  }

  test("runs the demo twice with different questions and shows where the runs part", async ({ page }) => {
    const marathon = await runDemo(page, "Convert 26.2 mile to kilometre");
    const short = await runDemo(page, "Convert 5 kilometre to mile");

    // The run's header has its totals, and the way to compare it.
    const run = new RunPage(page);
    await run.goto(marathon);
    await expect(run.overview.getByRole("definition").filter({ hasText: / in \/ \d+ out$/ })).toBeVisible();
    await expect(run.overview).toContainText("Model turns2");
    await run.overview.getByRole("link", { name: "Compare with…" }).click();
    const compare = new ComparePage(page);
    await expect(compare.runA).toHaveValue(marathon);
    await page.getByRole("navigation", { name: "Compare with a recent run" }).getByRole("link", { name: `run ${short.slice(0, 8)}` }).click();
    await expect(page).toHaveURL(`/runs/compare?a=${marathon}&b=${short}`);
    await expect(compare.heading).toHaveText("Compare runs");
    // The question is the Start's output: the runs part at their first step.
    await expect(compare.divergence).toHaveText(/^First divergence at step 1 of 6: start#1 \(node start \(start\): outputs changed\)\.$/);
    await expect(compare.step("start#1")).toContainText("First divergence: Changed");
    // A changed text is diffed inside: the words that changed, marked in place, no escaped JSON strings.
    const question = compare.differences("start#1");
    await expect(question).toContainText("outputs.question Convert");
    await expect(question.getByRole("deletion").first()).toHaveText("removed: 26.2");
    await expect(question.getByRole("insertion").first()).toHaveText("added: 5");
    await expect(question).not.toContainText('"Convert');

    // The agent's call: a JSON diff of its arguments and result, not two blobs.
    const call = compare.differences("agent#1/call 1");
    await expect(call).toContainText("arguments.value 26.2 → 5");
    await expect(call).toContainText('arguments.from "mile" → "kilometre"');
    await expect(call).toContainText("result.result 42.1648128 →");
    await expect(compare.step("agent#1/call 1")).toContainText("call converter/convertUnits");
    await expect(compare.total("Tool calls")).toHaveText(/Tool calls\s*1\s*1\s*same/);

    await docsScreenshot(page, "compare", { fullPage: true });

    // The runs list has each run's turns and tokens.
    const runs = new RunsPage(page);
    await runs.goto("demo");
    await expect(runs.runRow(short)).toContainText("2 turns");
    // Tokens of both model turns, from their journalled rows (the offline model reports 20 out a turn).
    await expect(runs.runRow(short)).toContainText(/[\d,]+ in \/ 40 out/);
    await compare.goto(marathon, short);

    // Each side links to its trace.
    await page.getByRole("region", { name: "Run B" }).getByRole("link", { name: short.slice(0, 8) }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${short}$`));
  });

  test("refuses the same run twice and an unknown run, at the field, and compares after a fix", async ({ page }) => {
    const runId = await runDemo(page, "Convert 1 mile to kilometre");
    const compare = new ComparePage(page);
    await compare.goto(runId, runId);
    await expect(compare.problem).toContainText(`Both sides are run "${runId}": choose another run to compare it with.`);
    await expect(compare.runB).toHaveAttribute("aria-invalid", "true");
    await expect(compare.steps).toBeHidden();

    await compare.runB.fill("no-such-run");
    await compare.compareButton.click();
    await expect(compare.problem).toContainText('There is no run "no-such-run".');
    await expect(compare.runB).toHaveAttribute("aria-invalid", "true");

    const other = await runDemo(page, "Convert 1 mile to kilometre");
    await compare.goto(runId, other);
    // Six steps: start, the agent's two model turns, its tool call, the agent's node result and the end.
    await expect(compare.divergence).toHaveText("The runs agree step for step (6 steps).");
    await expect(compare.problem).toBeHidden();
  });

  test("folds the identical steps of two long runs around the one step where they part", async ({ page }) => {
    const { a, b } = await seedRunPair(200, 150);
    const compare = new ComparePage(page);
    await compare.goto(a, b);
    await expect(compare.divergence).toHaveText("First divergence at step 151 of 201: agent#1/call 150 (call inventory/checkStock: result changed).");
    await expect(compare.differences("agent#1/call 150")).toHaveText("result.stock 7 → 0");
    await expect(compare.steps.getByRole("cell", { name: /^148 identical steps \(agent#1\/call 1 … agent#1\/call 148\)/ })).toBeVisible();
    // The header, agent#1, 148 folded, call 149, call 150, call 151, 48 folded, call 200.
    await expect(compare.steps.getByRole("row")).toHaveCount(8);
    await compare.steps.getByRole("link", { name: "Show every step" }).first().click();
    await expect(compare.steps.getByRole("row")).toHaveCount(1 + 201);
    await expect(compare.step("agent#1/call 150")).toContainText("First divergence: Changed");
  });
});
