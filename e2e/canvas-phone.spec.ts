import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { RunPage } from "./pages/run-page";
import { docsScreenshot } from "./support/docs-screenshot";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** True when nothing on the page is wider than the screen (no sideways scrolling). */
async function fitsTheWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

async function viewportTransform(page: Page): Promise<string> {
  return page.locator(".react-flow__viewport").evaluate((element) => getComputedStyle(element).transform);
}

// Deliver 6: on a phone the canvas fills the screen, can be panned and zoomed, and the trace reads.
test("at 390x844 the canvas fills the screen, pans and zooms, palette and inspector are drawers, and the trace is readable", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.goto("demo");
  const frame = (await canvas.canvas.boundingBox())!;
  expect(frame.width).toBeGreaterThanOrEqual(380);
  expect(frame.height).toBeGreaterThan(400);
  expect(await fitsTheWidth(page)).toBe(true);
  await expect(canvas.palette).toBeHidden();
  await expect(canvas.inspector).toBeHidden();
  await expect(canvas.node("agent")).toBeVisible();
  await docsScreenshot(page, "canvas-phone");

  // Pan: drag the empty pane; zoom: the zoom control.
  const before = await viewportTransform(page);
  const pane = canvas.canvas.locator(".react-flow__pane");
  const paneBox = (await pane.boundingBox())!;
  // From the empty top-left corner (the zoom controls sit bottom left).
  await page.mouse.move(paneBox.x + 12, paneBox.y + 12);
  await page.mouse.down();
  await page.mouse.move(paneBox.x + 160, paneBox.y + 120, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => viewportTransform(page)).not.toBe(before);
  const panned = await viewportTransform(page);
  await page.getByRole("button", { name: "Zoom In" }).click();
  await expect.poll(() => viewportTransform(page)).not.toBe(panned);

  // The drawers.
  await canvas.toolbar.getByRole("button", { name: "Add nodes" }).click();
  await expect(canvas.palette).toBeVisible();
  await canvas.palette.getByRole("button", { name: "Close the palette" }).click();
  await expect(canvas.palette).toBeHidden();
  await canvas.toolbar.getByRole("button", { name: "Inspector" }).click();
  await expect(canvas.inspector).toBeVisible();
  await canvas.inspector.getByRole("button", { name: "Close the inspector" }).click();
  await expect(canvas.inspector).toBeHidden();

  // A run, then its trace on the phone.
  await canvas.command("Run").click();
  const dialog = page.getByRole("dialog", { name: "Run the workflow" });
  await dialog.getByLabel(/^question/).fill("convert 5 kilometre to mile");
  await dialog.getByRole("button", { name: "Start run" }).click();
  const run = page.getByRole("region", { name: "Current run" });
  await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
  // The run is a sheet over the canvas's foot: the canvas keeps its size, the zoom controls stay clear of it.
  const canvasAfterRun = (await canvas.canvas.boundingBox())!;
  const sheet = (await run.boundingBox())!;
  expect(canvasAfterRun.height).toBeCloseTo(frame.height, 0);
  expect(sheet.y + sheet.height).toBeCloseTo(canvasAfterRun.y + canvasAfterRun.height, 0);
  const zoomIn = (await page.getByRole("button", { name: "Zoom In", exact: true }).boundingBox())!;
  expect(zoomIn.y + zoomIn.height).toBeLessThanOrEqual(sheet.y);
  await run.getByRole("link", { name: "Open the run’s trace" }).click();
  const trace = new RunPage(page);
  await expect(trace.heading).toContainText("Run of");
  await expect(trace.showCall("convertUnits")).toBeVisible();
  // Each node row keeps its node's name, before its status badge and the row's end.
  for (const nodeId of ["start", "agent", "end"]) {
    const name = trace.trace.getByText(nodeId, { exact: true }).first();
    await expect(name).toBeVisible();
    expect((await name.boundingBox())!.width).toBeGreaterThan(nodeId.length * 6);
  }
  await trace.showCall("convertUnits").click();
  await expect(page.getByRole("region", { name: "Arguments and result of call convertUnits" })).toBeVisible();
  expect(await fitsTheWidth(page)).toBe(true);
  await docsScreenshot(page, "trace-phone", { fullPage: true });
});
