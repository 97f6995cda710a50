import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";

const agentTitle = "Offline agent (built-in test model)";
const socket = (node: string) => `Tool socket "mcpService" of ${node} (consumes tools)`;
const provider = (node: string) => `Tool provider "mcpService" of ${node} (offers tools)`;

test.describe("the canvas, as a new user", () => {
  test("builds a workflow: drag and add nodes, connect, a refused connection, config, reload, undo and redo", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    const name = `Canvas test ${Date.now().toString(36)}`;
    await workflows.goto();
    const id = await workflows.createWorkflow(name);
    await expect(canvas.heading).toHaveText(name);
    await expect(canvas.node("start")).toBeVisible();

    // The palette: search, then drag a service onto the canvas and add an agent with its Add button.
    await canvas.search.fill("unit");
    await expect(canvas.paletteItem("Unit Converter")).toBeVisible();
    await expect(canvas.paletteItem(agentTitle)).toBeHidden();
    await canvas.dragFromPalette("Unit Converter", { x: 160, y: 480 });
    await expect(canvas.node("unit-converter")).toBeVisible();
    await expect(canvas.messages).toContainText("Added Unit Converter");
    await canvas.search.fill("");
    await canvas.addFromPalette(agentTitle);
    await expect(canvas.node("offline-agent")).toBeVisible();
    await expect(canvas.node("offline-agent")).toContainText("offline");
    await expect(canvas.node("offline-agent")).toContainText("no tools");

    // Wire the converter's tools into the agent, with both in view.
    await canvas.command("Fit view").click();
    await canvas.connect(canvas.handle(provider("unit-converter")), canvas.handle(socket("offline-agent")));
    await expect(canvas.edge("Service edge from unit-converter.mcpService to offline-agent.mcpService")).toBeVisible();
    await expect(canvas.messages).toContainText("service edge");
    await expect(canvas.node("offline-agent")).toContainText(/2 tools · ≈\d+ tok/);

    // A signal into a tool socket is refused, and the reason is shown.
    await canvas.connect(canvas.handle('Output "started" (signal) of start'), canvas.handle(socket("offline-agent")));
    await expect(canvas.messages).toContainText("Not connected:");
    await expect(canvas.messages).toContainText("do not go together");
    await expect(canvas.canvas.locator(".react-flow__edge")).toHaveCount(1);

    // Edit the agent in the inspector: as-you-type validation, then a valid value and a label.
    await canvas.select("offline-agent");
    await expect(canvas.inspector.getByRole("region", { name: "Tool definitions" })).toContainText("Every tool is offered to the model directly.");
    const maxTurns = canvas.inspector.getByLabel("Max turns");
    await maxTurns.fill("50");
    await expect(maxTurns).toHaveAttribute("aria-invalid", "true");
    await expect(canvas.inspector.locator('[data-field="maxTurns"] .field-error')).toHaveText("Max turns must be at most 20");
    await expect(canvas.node("offline-agent")).toContainText("1 error");
    await maxTurns.fill("7");
    await expect(canvas.inspector.locator('[data-field="maxTurns"] .field-error')).toHaveCount(0);
    await canvas.inspector.getByLabel("Label").fill("Unit helper");
    await expect(canvas.node("offline-agent")).toContainText("Unit helper");

    // Reload and find it saved.
    await canvas.expectSaved();
    await page.reload();
    await expect(canvas.node("offline-agent")).toContainText("Unit helper");
    await expect(canvas.edge("Service edge from unit-converter.mcpService to offline-agent.mcpService")).toBeVisible();
    await canvas.select("offline-agent");
    await expect(canvas.inspector.getByLabel("Max turns")).toHaveValue("7");
    await expect(page).toHaveURL(new RegExp(`/workflows/${id}$`));

    // Undo and redo: delete the converter, bring it back, delete it again, bring it back.
    await canvas.select("unit-converter");
    await page.keyboard.press("Delete");
    await expect(canvas.node("unit-converter")).toHaveCount(0);
    await expect(canvas.canvas.locator(".react-flow__edge")).toHaveCount(0);
    await canvas.focusCanvas();
    await page.keyboard.press("ControlOrMeta+z");
    await expect(canvas.node("unit-converter")).toBeVisible();
    await expect(canvas.canvas.locator(".react-flow__edge")).toHaveCount(1);
    await page.keyboard.press("ControlOrMeta+Shift+z");
    await expect(canvas.node("unit-converter")).toHaveCount(0);
    await canvas.command("Undo").click();
    await expect(canvas.node("unit-converter")).toBeVisible();
    await canvas.command("Redo").click();
    await expect(canvas.node("unit-converter")).toHaveCount(0);
    await page.keyboard.press("ControlOrMeta+y");
    await expect(canvas.node("unit-converter")).toHaveCount(0);
    await canvas.command("Undo").click();
    await expect(canvas.node("unit-converter")).toBeVisible();
    await canvas.expectSaved();
    await page.reload();
    await expect(canvas.node("unit-converter")).toBeVisible();
  });

  test("copies and pastes nodes, selects several, lays out, and lists the shortcuts", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    await workflows.goto();
    await workflows.createWorkflow(`Clipboard test ${Date.now().toString(36)}`);
    await canvas.addFromPalette("Weather");
    await expect(canvas.node("weather")).toBeVisible();

    await canvas.select("weather");
    await page.keyboard.press("ControlOrMeta+c");
    await expect(canvas.messages).toContainText("Copied 1 node");
    await page.keyboard.press("ControlOrMeta+v");
    await expect(canvas.node("weather-2")).toBeVisible();
    await page.keyboard.press("ControlOrMeta+d");
    await expect(canvas.node("weather-3")).toBeVisible();

    await canvas.focusCanvas();
    await page.keyboard.press("ControlOrMeta+a");
    await expect(canvas.inspector).toContainText("4 elements selected");
    await page.keyboard.press("Escape");
    await expect(canvas.inspector).toContainText("Select a node to edit");

    await canvas.command("Auto-layout").click();
    await expect(canvas.messages).toContainText("Laid out the workflow");
    await expect(canvas.command("Undo")).toBeEnabled();

    await canvas.focusCanvas();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help.getByRole("row").filter({ hasText: "Undo" }).first()).toContainText("Ctrl+Z");
    await expect(help.getByRole("row").filter({ hasText: "Redo" })).toContainText("Shift+Ctrl+Z");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
  });

  test("saves a version with a note and restores it", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    await workflows.goto();
    await workflows.createWorkflow(`Versions test ${Date.now().toString(36)}`);

    await canvas.command("Versions").click();
    const dialog = page.getByRole("dialog", { name: "Versions" });
    await dialog.getByLabel("Version note").fill("Just the Start");
    await dialog.getByRole("button", { name: "Save version" }).click();
    await expect(dialog.getByRole("list", { name: "Saved versions" })).toContainText("Just the Start");
    await page.keyboard.press("Escape");

    await canvas.addFromPalette("End");
    await expect(canvas.node("end")).toBeVisible();
    await canvas.expectSaved();

    await canvas.command("Versions").click();
    await dialog.getByRole("button", { name: "Restore version 1" }).click();
    await expect(dialog).toBeHidden();
    await expect(canvas.node("end")).toHaveCount(0);
    await expect(canvas.messages).toContainText("Restored version 1");
    await canvas.command("Versions").click();
    await expect(dialog.getByRole("list", { name: "Saved versions" })).toContainText("Before restoring version 1");
    await page.keyboard.press("Escape");

    await canvas.expectSaved();
    await page.reload();
    await expect(canvas.node("start")).toBeVisible();
    await expect(canvas.node("end")).toHaveCount(0);
  });

  test("every control has an accessible name, on the canvas and the list", async ({ page }) => {
    const canvas = new CanvasPage(page);
    const unnamedControls = () =>
      page.evaluate(() => {
        const controls = [...document.querySelectorAll<HTMLElement>("button, a[href], input:not([type=hidden]), select, textarea, [role=button], .react-flow__node, .react-flow__handle")];
        const named = (element: HTMLElement) => {
          if (element.getAttribute("aria-label")?.trim() || element.getAttribute("aria-labelledby")) return true;
          if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) return (element.labels?.length ?? 0) > 0;
          return (element.textContent ?? "").trim() !== "" || Boolean(element.getAttribute("title"));
        };
        return controls.filter((element) => !named(element)).map((element) => element.outerHTML.slice(0, 120));
      });
    await canvas.goto("demo");
    await expect(canvas.node("agent")).toBeVisible();
    await canvas.select("agent");
    expect(await unnamedControls()).toEqual([]);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Workflows" })).toBeVisible();
    expect(await unnamedControls()).toEqual([]);
  });
});

test.describe("the canvas, by keyboard", () => {
  test("adds nodes and wires them with the keyboard alone: Enter on one handle, then on another", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const canvas = new CanvasPage(page);
    await workflows.goto();
    await workflows.createWorkflow(`Keyboard test ${Date.now().toString(36)}`);
    await canvas.palette.getByRole("button", { name: "Add Weather", exact: true }).focus();
    await page.keyboard.press("Enter");
    await canvas.palette.getByRole("button", { name: `Add ${agentTitle}`, exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(canvas.node("offline-agent")).toBeVisible();

    await canvas.handle(provider("weather")).focus();
    await page.keyboard.press("Enter");
    await canvas.handle(socket("offline-agent")).focus();
    await page.keyboard.press("Enter");
    await expect(canvas.edge("Service edge from weather.mcpService to offline-agent.mcpService")).toBeVisible();

    await canvas.handle(socket("offline-agent")).focus();
    await page.keyboard.press("Enter");
    await canvas.handle(provider("weather")).focus();
    await page.keyboard.press("Enter");
    await expect(canvas.messages).toContainText("already joined");
  });
});
