import { expect, type Locator, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";

test.use({ viewport: { width: 1440, height: 900 } });

async function box(locator: Locator) {
  await locator.hover({ trial: true });
  const found = await locator.boundingBox();
  if (!found) throw new Error("no box");
  return found;
}

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

// Deliver 5: layout and keyboard.
test.describe("layout and keyboard", () => {
  test("added nodes go to free space, a paste lands beside its original, and auto-layout puts unwired nodes in a row", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    await workflows.goto();
    await workflows.createWorkflow(`Layout ${Date.now().toString(36)}`);
    for (const title of ["Weather", "Unit Converter", "HTTP Request"]) await canvas.addFromPalette(title);
    const ids = ["start", "weather", "unit-converter", "http-request"];
    await canvas.command("Fit view").click();
    const boxes = await Promise.all(ids.map((id) => box(canvas.node(id))));
    for (const [index, one] of boxes.entries()) for (const other of boxes.slice(index + 1)) expect(overlap(one, other)).toBe(false);

    await canvas.select("weather");
    await page.keyboard.press("ControlOrMeta+c");
    await page.keyboard.press("ControlOrMeta+v");
    await expect(canvas.node("weather-2")).toBeVisible();
    await canvas.command("Fit view").click();
    expect(overlap(await box(canvas.node("weather")), await box(canvas.node("weather-2")))).toBe(false);

    await canvas.command("Auto-layout").click();
    await expect(canvas.messages).toContainText("Laid out the workflow");
    // The nodes move to their new places over the next frames: the row is asserted once they have.
    const tops = () => Promise.all([...ids, "weather-2"].map(async (id) => Math.round((await box(canvas.node(id))).y)));
    await expect.poll(async () => new Set(await tops()).size, { timeout: 5_000 }).toBe(1);
  });

  test("a skip link reaches the canvas, Delete removes the focused node, a new Start has a field and a new field gets the focus", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    await workflows.goto();
    await workflows.createWorkflow(`Keys ${Date.now().toString(36)}`);
    await canvas.addFromPalette("Weather");
    await expect(canvas.node("weather")).toBeVisible();

    const skip = page.getByRole("link", { name: "Skip to the canvas" });
    await skip.focus();
    await page.keyboard.press("Enter");
    await expect(canvas.node("start")).toBeFocused();
    // Focused, not selected: Escape clears the selection the Add left, then Delete acts on the focused node.
    await canvas.focusCanvas();
    await page.keyboard.press("Escape");
    await expect(canvas.inspector).toContainText("Select a node to edit");
    await canvas.node("weather").focus();
    await page.keyboard.press("Delete");
    await expect(canvas.node("weather")).toHaveCount(0);

    await canvas.command("Fit view").click();
    await canvas.select("start");
    const fields = canvas.inspector.getByRole("group", { name: "Input fields" });
    await expect(fields.getByRole("textbox", { name: /^Name/ })).toHaveValue("input");
    await fields.getByRole("button", { name: "Add input field" }).click();
    await expect(fields.getByRole("textbox", { name: /^Name/ }).nth(1)).toBeFocused();
  });
});
