import { expect, test } from "@playwright/test";
import { kilometreDataset, seedTwoVersions } from "./fixtures/seed-evaluation";
import { TestsPage } from "./pages/tests-page";
import { axeViolations } from "./support/axe";
import { docsScreenshot } from "./support/docs-screenshot";

test.use({ viewport: { width: 1440, height: 900 } });

const rows = 200;

// Issue 24: a dataset uploaded on the Tests page, scored on two versions; the table and the per-row diff.
test("a 200-row JSONL dataset scored on two versions: the table by version and the rows that differ, word by word", async ({ page }) => {
  test.setTimeout(900_000);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  const workflowId = await seedTwoVersions(`evaluated-${Date.now().toString(36)}`);
  const tests = new TestsPage(page);
  await tests.goto(workflowId);
  await expect(tests.heading).toHaveText(/^Tests of “Evaluated demo/);
  expect(await axeViolations(page)).toEqual([]);

  // A malformed row is refused at file:line, the field named, and nothing is stored.
  await tests.uploadDataset("broken.jsonl", '{"input": {"question": "convert 1 km to mile"}}\n\n{"input": "convert 2 km to mile"}\n');
  await expect(tests.upload.getByRole("alert")).toHaveText('broken.jsonl:3: input: must be a JSON object (one property per input field), not string "convert 2 km to mile"');
  await expect(page.getByText("No dataset yet.")).toBeVisible();

  await tests.uploadDataset("kilometres.jsonl", kilometreDataset(rows));
  await expect(tests.upload.getByRole("status")).toHaveText(`kilometres.jsonl: ${rows} rows stored.`);
  await expect(page.getByRole("listitem").filter({ hasText: `kilometres.jsonl: ${rows} rows` })).toBeVisible();

  // The scorers: the outputs equal the expected ones, and they name kilometres.
  await tests.addScorer("exact: equal to the expected output");
  await tests.addScorer("contains a text", { Text: "kilometre" });
  await tests.scorers.getByRole("button", { name: "Save scorers" }).click();
  await expect(tests.scorers.getByRole("status")).toHaveText("Saved 2 scorers; the next evaluation applies them.");

  await tests.runEvaluation("version 1: the demo");
  await expect(tests.line("version 1")).toContainText(`${rows}/${rows}`, { timeout: 600_000 });
  await tests.runEvaluation("version 2: 3 significant digits");
  await expect(tests.line("version 2")).toContainText(`${rows}/${rows}`, { timeout: 600_000 });
  await expect(tests.line("version 2")).not.toContainText("running");

  // Version 1 answers as expected; version 2's rounder answers fail exact and keep "kilometre": mean 0.5.
  await expect(tests.line("version 1").getByRole("cell").nth(2)).toHaveText(`100.0% ${rows} passed`);
  await expect(tests.line("version 1").getByRole("cell").nth(3)).toHaveText("1.000");
  await expect(tests.line("version 2").getByRole("cell").nth(2)).toHaveText("0.0% 0 passed");
  await expect(tests.line("version 2").getByRole("cell").nth(3)).toHaveText("0.500");
  await expect(tests.line("version 2").getByRole("cell").nth(4)).toHaveText(/^[1-9][\d]* \/ [1-9]\d*$/);
  await expect(tests.line("version 2").getByRole("cell").nth(6)).toHaveText(/^\d+(\.\d+)? m?s$/);

  // The rows that differ, version 1 → version 2, each with the words that changed in its outputs.
  await expect(page.getByRole("heading", { name: "Rows, version 1 → version 2" })).toBeVisible();
  const first = tests.rowDiffs.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Row 1 (line 1)" }) });
  await expect(first).toContainText('Input: {"question":"convert 1 kilometre to mile"}');
  await expect(first).toContainText("version 1: pass 1.00");
  await expect(first).toContainText("version 2: fail 0.50");
  const changes = first.getByRole("list", { name: "Output changes of row 1" });
  await expect(changes).toContainText("outputs.result");
  await expect(changes.getByRole("deletion").first()).toContainText("6213711922");
  await expect(changes.getByRole("insertion").first()).toContainText("621");
  await expect(tests.rowDiffs.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^Row \d+ \(line \d+\)$/ }) })).toHaveCount(50);

  expect(await axeViolations(page)).toEqual([]);
  // The table and the first rows that differ, in one window.
  await page.getByRole("heading", { name: "Evaluations by version" }).evaluate((heading) => heading.scrollIntoView({ block: "start" }));
  await docsScreenshot(page, "tests-page");
  expect(problems).toEqual([]);
});
