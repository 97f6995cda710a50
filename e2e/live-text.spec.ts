import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { axeViolations } from "./support/axe";

test.use({ viewport: { width: 1440, height: 900 } });

/** What a page saw of an agent's live text: when it first appeared and when the run was shown ended (ms after `since`), and the distinct lengths it had. */
type TextTiming = { firstText: number; ended: number; lengths: number[]; lastText: string; toolDone: boolean };

/**
 * Watches the page from now on: the length of the text in `textSelector`, and when
 * `endSelector` first says "completed"; whether `tool` (a finished tool
 * call) was ever shown. Measured in the page, no sleeps: what is shown only
 * while the run runs is recorded as it happens.
 */
async function watchText(page: Page, selectors: { text: string; end: string; tool?: string }): Promise<void> {
  const install = ({ text, end, tool }: { text: string; end: string; tool?: string }) => {
    const state = { start: performance.now(), firstText: -1, ended: -1, lengths: [] as number[], lastText: "", toolDone: false };
    (window as unknown as { liveTiming: typeof state }).liveTiming = state;
    const observe = () => {
      const observer = new MutationObserver(() => {
        const shown = [...document.querySelectorAll(text)].map((node) => node.textContent ?? "").join("");
        const length = shown.length;
        if (length > 0) state.lastText = shown;
        if (tool && document.querySelector(tool)) state.toolDone = true;
        if (length > 0 && state.firstText < 0) state.firstText = performance.now() - state.start;
        if (length > 0 && state.lengths.at(-1) !== length) state.lengths.push(length);
        if (state.ended < 0 && /completed/.test(document.querySelector(end)?.textContent ?? "")) {
          state.ended = performance.now() - state.start;
          observer.disconnect();
        }
      });
      observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true });
    };
    if (document.documentElement) observe();
    else document.addEventListener("DOMContentLoaded", observe);
  };
  await page.evaluate(install, selectors);
}

async function timingOf(page: Page): Promise<TextTiming> {
  await expect.poll(() => page.evaluate(() => (window as unknown as { liveTiming?: { ended: number } }).liveTiming?.ended ?? -1), { timeout: 90_000 }).toBeGreaterThan(0);
  return page.evaluate(() => (window as unknown as { liveTiming: TextTiming }).liveTiming);
}

/** Imports the fixture (Start → a 20 s Delay (room for a slow machine to open the run page before the agent writes) → the question taken out of the request → the offline agent with the unit converter → End) and opens it on the canvas. */
async function openDelayedAgent(page: Page): Promise<CanvasPage> {
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  const name = `Live text ${Date.now().toString(36)}`;
  const fixture = JSON.parse(await readFile("e2e/fixtures/delayed-agent-workflow.json", "utf8"));
  await workflows.importJson("live-text.json", JSON.stringify({ ...fixture, name }));
  await workflows.importStatus.getByRole("link", { name: `Open ${name}` }).click();
  const canvas = new CanvasPage(page);
  // A slow machine takes seconds to open the canvas.
  await expect(canvas.node("agent")).toBeVisible({ timeout: 20_000 });
  return canvas;
}

async function startRun(page: Page, canvas: CanvasPage): Promise<void> {
  await canvas.command("Run").click();
  const dialog = page.getByRole("dialog", { name: "Run the workflow" });
  await dialog.getByLabel(/^request/).fill(JSON.stringify({ question: "convert 5 kilometre to mile" }));
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(dialog).toBeHidden();
}

test.describe("live text (offline model)", () => {
  // Each run waits 20 s in its Delay before the agent writes.
  test.setTimeout(120_000);

  test("the run page shows the agent's text growing before the run ends, and tool calls as they start and end; then the recorded trace", async ({ page }) => {
    const canvas = await openDelayedAgent(page);
    await startRun(page, canvas);
    // The run page opens while the Delay holds the run (the link is a client-side navigation, so the watch starts once it shows): it follows the agent from its first word.
    await page.getByRole("region", { name: "Current run" }).getByRole("link", { name: "Open the run’s trace" }).click();
    await expect(page.getByRole("heading", { name: /^Run of Live text/ })).toBeVisible({ timeout: 20_000 });
    const live = page.getByRole("region", { name: "Live output" });
    await expect(live).toContainText("No agent has written yet.");
    const liveSection = 'section[aria-labelledby="live-heading"]';
    await watchText(page, { text: `${liveSection} li[data-node="agent"] p`, end: 'section[aria-labelledby="run-heading"] p[role="status"]', tool: `${liveSection} [role="group"][aria-label$=": done"]` });
    expect(await axeViolations(page)).toEqual([]);

    const timing = await timingOf(page);
    const ratio = timing.firstText / timing.ended;
    console.log(`run page: first text at ${timing.firstText.toFixed(0)} ms, run shown ended at ${timing.ended.toFixed(0)} ms (ratio ${ratio.toFixed(2)}), ${timing.lengths.length} lengths seen`);
    expect(timing.firstText).toBeGreaterThan(0);
    expect(timing.toolDone).toBe(true);
    expect(timing.lastText).toMatch(/^\(offline model\) .*answered: .*mile/);
    // The text is shown before the run ends; how many steps it grows in here is printed, not asserted (the endpoint's piece-by-piece stream is asserted in app/api/run-stream.test.ts).
    expect(ratio).toBeLessThan(1);

    // Ended: the live part gives way to the recorded trace, where the answer is the agent's model turn.
    await expect(live).toBeHidden();
    await expect(page.getByRole("list", { name: "Trace: node runs and tool calls" }).getByRole("listitem").filter({ hasText: "agent" }).first()).toBeVisible();
  });

  test("the canvas's running agent node shows its text growing, in a named live region, fed by the run's stream", async ({ page }) => {
    const canvas = await openDelayedAgent(page);
    // The preview is a polite live region (role status) named for the agent.
    const preview = '.react-flow__node[data-id="agent"] [role="status"][aria-live="polite"][aria-label$=" is writing"]';
    await watchText(page, { text: preview, end: 'section[aria-label="Current run"] [role="status"]' });
    await startRun(page, canvas);

    const timing = await timingOf(page);
    expect(timing.lastText).toContain("mile");
    const ratio = timing.firstText / timing.ended;
    console.log(`canvas node: first text at ${timing.firstText.toFixed(0)} ms, run shown ended at ${timing.ended.toFixed(0)} ms (ratio ${ratio.toFixed(2)}), ${timing.lengths.length} lengths seen`);
    // The preview exists only while the run runs: text seen in it was shown live. How many steps it grew in is printed, not asserted (it follows the machine's load).
    expect(timing.firstText).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(1);

    // Ended: the preview gives way to the node's status and outputs.
    await expect(canvas.node("agent").getByRole("status", { name: /is writing$/ })).toBeHidden();
    await expect(canvas.node("agent").locator(".wf-run-status")).toHaveText("completed");
  });
});
