import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { axeViolations } from "./support/axe";
import { docsScreenshot } from "./support/docs-screenshot";

/** The demo workflow without its agent → end edge: the edge a test then draws by tapping. */
async function openUnwiredDemo(page: Page, name: string): Promise<CanvasPage> {
  const demo = JSON.parse(await readFile("e2e/fixtures/demo-workflow.json", "utf8"));
  const edges = demo.edges.filter((edge: { source: string; target: string }) => !(edge.source === "agent" && edge.target === "end"));
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  await workflows.importJson("unwired-demo.json", JSON.stringify({ ...demo, name, edges }));
  const open = workflows.importStatus.getByRole("link", { name: `Open ${name}` });
  // On a phone the header's menu is shut; the import's own link is on the page.
  await open.click();
  const canvas = new CanvasPage(page);
  await expect(canvas.canvas).toBeVisible();
  await expect(canvas.node("end")).toBeVisible();
  return canvas;
}

/** Whether the page itself scrolls: its content is taller than the window. */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body.scrollHeight) - window.innerHeight);
}

async function insideWindow(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

/**
 * A handle's touch target as measured on screen: its box (canvas.css draws the
 * dot on the box's outer side), and whether presses at its middle and near
 * each corner land on the handle and nothing else.
 */
function handleTarget(handle: Locator): Promise<{ width: number; height: number; everywhere: boolean }> {
  return handle.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const points = [
      [box.x + box.width / 2, box.y + box.height / 2],
      [box.x + 2, box.y + 2],
      [box.right - 2, box.y + 2],
      [box.x + 2, box.bottom - 2],
      [box.right - 2, box.bottom - 2],
    ];
    const everywhere = points.every(([x, y]) => document.elementFromPoint(x, y)?.closest(".react-flow__handle") === element);
    return { width: box.width, height: box.height, everywhere };
  });
}

const sizes = [
  { width: 390, height: 844, phone: true },
  { width: 1024, height: 768, phone: false },
  { width: 1440, height: 900, phone: false },
];

for (const size of sizes) {
  test.describe(`the canvas at ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, hasTouch: true, isMobile: size.phone });

    test("fits the window with its controls on screen, handles are 24 px targets, and two taps connect two nodes", async ({ page }) => {
      const canvas = await openUnwiredDemo(page, `Tap to connect ${size.width} ${Date.now().toString(36)}`);

      // No page scroll: the header, the toolbar and the canvas share the window.
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
      expect(await insideWindow(page, page.getByRole("button", { name: "Zoom In", exact: true }))).toBe(true);
      expect(await insideWindow(page, page.getByRole("button", { name: "Zoom Out", exact: true }))).toBe(true);
      expect(await insideWindow(page, page.getByRole("button", { name: "Fit View", exact: true }))).toBe(true);
      if (!size.phone) expect(await insideWindow(page, canvas.canvas.locator(".react-flow__minimap"))).toBe(true);

      // The drawers' close buttons exist only where the palette and the inspector are drawers.
      if (size.width >= 900) {
        await expect(canvas.palette.getByRole("button", { name: "Close the palette" })).toBeHidden();
        await expect(canvas.inspector.getByRole("button", { name: "Close the inspector" })).toBeHidden();
      }

      const from = canvas.handle('Output "answer" (string) of agent');
      const to = canvas.handle('Input "result" (any) of end');
      for (const handle of [from, to]) {
        const target = await handleTarget(handle);
        expect(target.width).toBeGreaterThanOrEqual(24);
        expect(target.height).toBeGreaterThanOrEqual(24);
        expect(target.everywhere).toBe(true);
      }
      await docsScreenshot(page, `canvas-${size.width}x${size.height}`);

      // Tap the source, then the target: React Flow's click-to-connect, driven by touch events.
      await from.tap();
      await expect(from).toHaveClass(/clickconnecting/);
      await to.tap();
      await expect(canvas.edge("Signal edge from agent.answer to end.result")).toHaveCount(1);
      await expect(canvas.messages).toContainText("Connected agent.answer to end.result");
      expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    });
  });
}

/** The canvas's zoom, read from the viewport's transform. */
function zoom(page: Page): Promise<number> {
  return page.locator(".react-flow__viewport").evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).a);
}

test.describe("the canvas's accessibility", () => {
  for (const size of [sizes[0], sizes[2]]) {
    test(`axe finds no violation of any impact at ${size.width}x${size.height}`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const canvas = new CanvasPage(page);
      await canvas.goto("demo");
      await expect(canvas.node("agent")).toBeVisible();
      // Fitted to the window, ports of one side sit closer than 24 px on screen (20 px apart at 100 %): they leave
      // the Tab order, so no focusable target is under 24 px (axe's target-size), and the inspector's Connect form
      // does their work (docs/decisions.md, "Handles sized by the zoom").
      expect(await zoom(page)).toBeLessThan(1.2);
      expect(await axeViolations(page)).toEqual([]);
      // Zoomed in until ports are 24 px apart: every port is back in the Tab order, and still nothing.
      const zoomIn = page.getByRole("button", { name: "Zoom In", exact: true });
      while ((await zoom(page)) < 1.2) {
        const before = await zoom(page);
        await zoomIn.click();
        await expect.poll(() => zoom(page)).toBeGreaterThan(before);
      }
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test("the inspector's Connect form joins two handles from the keyboard alone, at any zoom", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const canvas = await openUnwiredDemo(page, `Connect form ${Date.now().toString(36)}`);
    expect(await zoom(page)).toBeLessThan(1.2);
    await canvas.node("agent").focus();
    await page.keyboard.press("Enter");
    const connect = canvas.inspector.getByText("Connect to another node");
    await expect(connect).toBeVisible();
    await connect.focus();
    await expect(connect).toBeFocused();
    await page.keyboard.press("Enter");
    const form = canvas.inspector.getByRole("form", { name: "Connect agent" });
    await expect(form).toBeVisible();
    await form.getByLabel("Handle of agent").selectOption({ label: 'output "answer" (string)' });
    await form.getByLabel("Join it to").selectOption({ label: 'end: input "result" (any)' });
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole("button", { name: "Connect" }).press("Enter");
    await expect(canvas.edge("Signal edge from agent.answer to end.result")).toHaveCount(1);
    await expect(canvas.messages).toContainText("Connected agent.answer to end.result");
    // Joined now, and every handle of the agent with it: the form says there is nothing more to join.
    await expect(canvas.inspector.getByText("Nothing more can be joined to agent")).toBeVisible();
  });
});

test.describe("the site header on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("collapses to a Menu button that opens and closes the navigation", async ({ page }) => {
    await page.goto("/runs");
    const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
    const navigation = page.getByRole("navigation", { name: "Main" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(navigation).toBeHidden();
    const header = (await page.getByRole("banner").boundingBox())!;
    expect(header.height).toBeLessThan(80);

    await menu.tap();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(navigation).toBeVisible();
    await navigation.getByRole("link", { name: "Approvals" }).tap();
    await expect(page).toHaveURL(/\/approvals$/);
    // Following a link shuts the menu.
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(navigation).toBeHidden();
  });

  test("is a row of links with no Menu button from 768 px", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto("/runs");
    await expect(page.getByRole("banner").getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });
});
