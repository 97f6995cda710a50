import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { docsScreenshot } from "./support/docs-screenshot";

test.use({ viewport: { width: 1440, height: 900 } });

test.describe("running from the canvas", () => {
  test("runs the demo with an input form, shows every node's status live, links the trace; screenshot for the README", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.goto("demo");
    await expect(canvas.node("agent")).toContainText(/2 tools · ≈\d+ tok/);

    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    const question = dialog.getByLabel(/^question/);
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog.getByText("The input needs \"question\"")).toBeVisible();
    await question.fill("convert 5 kilometre to mile");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog).toBeHidden();

    const run = page.getByRole("region", { name: "Current run" });
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
    for (const id of ["start", "agent", "end"]) await expect(canvas.node(id).locator(".wf-run-status")).toHaveText("completed");
    await expect(run.getByRole("link", { name: "Open the run’s trace" })).toHaveAttribute("href", /^\/runs\/[^/]+$/);

    await canvas.select("agent");
    await expect(canvas.inspector.getByRole("region", { name: "Tool definitions" })).toContainText("2 tools");
    await canvas.messages.getByRole("button", { name: "Dismiss message" }).click();
    await expect(canvas.messages).toBeEmpty();
    await page.mouse.move(0, 0);
    await docsScreenshot(page, "canvas");
  });
});
