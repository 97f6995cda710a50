import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";

test.use({ viewport: { width: 1440, height: 900 } });

// Deliver 4: while dragging, where an edge may end, and why not when it may not.
test("while an edge is drawn, compatible handles light up, incompatible ones dim, and a refused drop says why by the pointer, then in the status line once dropped", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.goto("demo");
  const from = canvas.handle('Output "question" (string) of start');
  const compatible = canvas.handle('Input "result" (any) of end');
  const incompatible = canvas.handle('Tool socket "mcpService" of agent (consumes tools)');
  await from.hover({ trial: true });
  const start = (await from.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + 60, start.y + 40, { steps: 6 });
  await expect(compatible).toHaveClass(/is-compatible/);
  await expect(incompatible).toHaveClass(/is-incompatible/);
  // Already joined to it by an edge: drawing it again is refused too.
  await expect(canvas.handle('Input "prompt" (string) of agent')).toHaveClass(/is-incompatible/);

  const target = (await incompatible.boundingBox())!;
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
  const reason = canvas.canvas.locator(".connection-reason");
  await expect(reason).toContainText("do not go together");
  await page.mouse.up();
  // After the drop the tooltip is gone; the reason stays in the status line.
  await expect(reason).toHaveCount(0);
  await expect(canvas.messages).toContainText("Not connected:");
  await expect(compatible).not.toHaveClass(/is-compatible/);
});
