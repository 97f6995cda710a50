import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { seedAskingWorkflow } from "./fixtures/seed-approvals";
import { ComparePage } from "./pages/compare-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { docsScreenshot } from "./support/docs-screenshot";

/** "355 ms", "1.25 s", "11 min 53 s" (components/run/format.ts) in milliseconds. */
function milliseconds(text: string): number {
  const minutes = /(\d+) min (\d+) s/.exec(text);
  if (minutes) return Number(minutes[1]) * 60_000 + Number(minutes[2]) * 1000;
  const seconds = /([\d.]+) s\b/.exec(text);
  if (seconds) return Number(seconds[1]) * 1000;
  const ms = /(\d+) ms\b/.exec(text);
  if (ms) return Number(ms[1]);
  throw new Error(`no duration in "${text}"`);
}

/** The run's wall time, from "Completed in …" on its page. */
async function wallTime(run: RunPage): Promise<number> {
  return milliseconds((await run.status.textContent())!.replace(/^.*Completed in /, ""));
}

/** Every waterfall bar's name ("Node agent: starts at 12 ms, takes 300 ms, ends at 312 ms"), in the tree's order. */
async function bars(run: RunPage): Promise<string[]> {
  return run.trace.getByRole("img", { name: /: starts at / }).evaluateAll((elements) => elements.map((element) => element.getAttribute("aria-label") ?? ""));
}

/** Each bar's end ("ends at …") in milliseconds after the run's start. */
function endsOf(names: readonly string[]): number[] {
  return names.map((name) => milliseconds(name.replace(/^.*ends at /, "")));
}

/** Every axe-core violation, whatever its impact. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ")}`);
}

/** The rows of the trace as their text reads, in order. */
async function rowTexts(run: RunPage): Promise<string[]> {
  return run.renderedRows().evaluateAll((elements) => elements.map((element) => (element.textContent ?? "").replace(/\s+/g, " ").trim()));
}

function indexOf(rows: readonly string[], pattern: RegExp): number {
  const index = rows.findIndex((row) => pattern.test(row));
  if (index < 0) throw new Error(`no row matches ${pattern}: ${rows.join(" | ")}`);
  return index;
}

test.describe("the trace tells the truth about time", () => {
  test.describe.configure({ timeout: 180_000 });

  test("a fork's trace and the compare page keep within the fork's wall time, replayed steps marked and linked to the parent's", async ({ page }) => {
    const runs = new RunsPage(page);
    await runs.goto("demo");
    const parent = await runs.run({ question: "Convert 26.2 mile to kilometre" });
    const run = new RunPage(page);
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
    await run.showCall("convertUnits").click();
    await run.forkFrom("call convertUnits's result").click();
    // The fork form open: no axe violation of any impact.
    await expect(run.forkEditor).toBeVisible();
    expect.soft(await violations(page)).toEqual([]);
    await run.forkEditor.getByRole("textbox", { name: /What the step answered/ }).fill(JSON.stringify({ result: 1000, unit: "kilometre" }));
    await run.forkEditor.getByRole("button", { name: "Fork run with this edit" }).click();
    await page.waitForURL((url) => /\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(parent));
    const fork = page.url().split("/").at(-1)!;
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });

    const wall = await wallTime(run);
    const names = await bars(run);
    for (const end of endsOf(names)) expect(end, names.join("\n")).toBeLessThanOrEqual(wall * 1.1 + 1);
    // Start comes first; the agent, replayed up to the fork point, after it.
    expect(names.findIndex((name) => name.startsWith("Node start:"))).toBeLessThan(names.findIndex((name) => name.startsWith("Node agent:")));
    const replayed = run.trace.getByRole("link", { name: /^Replayed: / });
    await expect(replayed.filter({ hasText: "replayed" }).first()).toBeVisible();
    await expect(run.trace.getByRole("link", { name: /^Replayed: call convertUnits as recorded in run / })).toHaveAttribute("href", new RegExp(`^/runs/${parent}\\?call=`));
    await docsScreenshot(page, "trace-fork-timeline", { fullPage: true });

    const compare = new ComparePage(page);
    await compare.goto(parent, fork);
    await expect(compare.divergence).toContainText("First divergence");
    expect.soft(await violations(page)).toEqual([]);
    await expect(compare.step("agent#1/turn 1").getByRole("link", { name: "replayed" })).toHaveCount(1);
    // Column B (the fork): every step's time within the fork's wall time.
    const forkTimes = await compare.steps.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.querySelectorAll("td")[2]?.textContent ?? "").filter((text) => /\d+(\.\d+)? (ms|s)\b/.test(text)));
    expect(forkTimes.length).toBeGreaterThan(3);
    for (const text of forkTimes) expect(milliseconds(text), text).toBeLessThanOrEqual(wall * 1.1 + 1);
  });

  test("a run that waited for approval shows the wait as its own span, who ended it, and the call after the turn that asked for it", async ({ page }) => {
    await seedAskingWorkflow();
    const runs = new RunsPage(page);
    await runs.goto("approvals-demo");
    await runs.run({ question: "Convert 26.2 mile to kilometre" });
    const run = new RunPage(page);
    await expect(run.status).toContainText("waiting for approval", { timeout: 30_000 });
    // While it waits: the wait is open.
    await expect(run.trace.getByRole("img", { name: /^Wait \(approval\): starts at / })).toBeVisible();
    await expect(run.renderedRows().filter({ hasText: "Waiting for approval of call agent#1/t1/c0" })).toContainText("still waiting");

    await page.getByRole("region", { name: /^Waiting for approval/ }).getByRole("button", { name: "Approve", exact: true }).click();
    await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
    const wait = run.renderedRows().filter({ hasText: /Waited for approval of call agent#1\/t1\/c0: approved by / });
    await expect(wait).toContainText("ended by");
    await expect(wait.getByRole("img", { name: /^Wait \(approval\): starts at / })).toBeVisible();

    // The trace loads a turn's row after the run's end reaches the page: read the rows once the last turn is there.
    await expect(run.renderedRows().filter({ hasText: /turn 2.*answered/ })).toHaveCount(1, { timeout: 30_000 });
    const rows = await rowTexts(run);
    const asked = indexOf(rows, /turn 1.*asked for convertUnits/);
    const waited = indexOf(rows, /Waited for approval/);
    const call = indexOf(rows, /^convertUnits/);
    const answered = indexOf(rows, /turn 2.*answered/);
    expect([asked < waited, waited < call, call < answered], rows.join(" | ")).toEqual([true, true, true]);
    // The run's frame holds everything: no bar ends after the run.
    const wall = await wallTime(run);
    for (const end of endsOf(await bars(run))) expect(end).toBeLessThanOrEqual(wall * 1.1 + 1);
    await expect(run.renderedRows().filter({ has: page.getByRole("button", { name: /calls of node agent$/ }) })).toContainText("of it waiting");
    await page.evaluate(() => window.scrollTo(0, 0));
    await docsScreenshot(page, "trace-approval-wait", { fullPage: true });
  });
});
