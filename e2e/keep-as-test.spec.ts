import { readFile, rm } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { docsScreenshot } from "./support/docs-screenshot";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { e2eCasesDir } from "./support/e2e-server";

test("a completed run of the demo is kept as a test case, written to the cases folder and downloaded", async ({ page }) => {
  // The app writes under data/ (SWITCHBOARD_CASES_DIR in playwright.config.ts); a case left by an earlier run would make this one "-2".
  await rm(`${e2eCasesDir}/5-km-in-miles.case.json`, { force: true });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  const runs = new RunsPage(page);
  await runs.goto("demo");
  const runId = await runs.run({ question: "Convert 5 kilometre to mile" });
  const run = new RunPage(page);
  await expect(run.status).toContainText("Completed in", { timeout: 30_000 });

  await run.overview.getByRole("button", { name: "Keep as test" }).click();
  const form = run.overview.getByRole("form", { name: "Keep this run as a test case" });
  const name = form.getByRole("textbox", { name: "Case name" });
  await expect(name).toHaveValue("Demo: unit conversion agent: Convert 5 kilometre to mile");
  await name.fill("5 km in miles");
  await form.getByRole("button", { name: "Keep" }).click();
  await expect(form).toContainText(`Kept as ${e2eCasesDir}/5-km-in-miles.case.json.`);
  await docsScreenshot(page, "keep-as-test");

  const downloading = page.waitForEvent("download");
  await form.getByRole("link", { name: "Download the case file" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("5-km-in-miles.case.json");
  const kept = JSON.parse(await readFile(await download.path(), "utf8")) as { name: string; pinnedFrom: { runId: string }; workflow: { id: string } };
  expect(kept).toMatchObject({ name: "5 km in miles", pinnedFrom: { runId }, workflow: { id: "demo" } });
  expect(problems).toEqual([]);
});
