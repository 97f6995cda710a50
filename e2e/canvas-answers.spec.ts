import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { RunPage } from "./pages/run-page";

test.use({ viewport: { width: 1440, height: 900 } });

// Deliver 2: a run's answer where people look — on the nodes, the End and a run panel.
test("after a run, nodes show their outputs, the End shows the result, the run panel lists the tool calls, and the notice ends with the run", async ({ page }) => {
  const canvas = new CanvasPage(page);
  await canvas.goto("demo");
  await canvas.command("Run").click();
  const dialog = page.getByRole("dialog", { name: "Run the workflow" });
  await dialog.getByLabel(/^question/).fill("convert 5 kilometre to mile");
  await dialog.getByRole("button", { name: "Start run" }).click();

  const run = page.getByRole("region", { name: "Current run" });
  await expect(run.getByRole("status")).toContainText("completed", { timeout: 30_000 });
  // The notice that announced the run gave way to how it ended.
  await expect(canvas.messages).toContainText("The run completed with 1 tool call; the End shows its result.");
  await expect(canvas.messages).not.toContainText("Run started");

  // Each node's outputs: a short preview, the full value on click.
  const answer = canvas.node("agent").getByRole("button", { name: /^answer / });
  await expect(answer).toContainText("(offline model) convertUnits answered");
  await answer.click();
  const full = page.getByRole("dialog", { name: "The value of answer of agent" });
  await expect(full.getByRole("region", { name: "Full value of answer of agent" })).toContainText("mile");
  await page.keyboard.press("Escape");
  await expect(full).toBeHidden();
  await expect(canvas.node("start").getByRole("button", { name: /^question / })).toContainText("convert 5 kilometre to mile");
  await expect(canvas.node("end").getByRole("button", { name: /^result / })).toContainText("convertUnits answered");

  // The run's tool calls, each linking to itself in the trace.
  const calls = run.getByRole("list", { name: "Tool calls of the run" });
  await expect(calls.getByRole("listitem")).toHaveCount(1);
  await calls.getByRole("link", { name: "convertUnits on converter, called by agent: open in the trace" }).click();
  const trace = new RunPage(page);
  await expect(trace.hideCall("convertUnits")).toBeVisible();
  await expect(page.getByRole("region", { name: "Arguments and result of call convertUnits" })).toContainText("kilometre");
  // And back from the trace to its canvas.
  await page.getByRole("link", { name: "Open the workflow on the canvas" }).click();
  await expect(canvas.node("agent")).toBeVisible();
});
