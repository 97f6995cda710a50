import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { WorkflowsPage } from "./pages/workflows-page";

/** A name no other test uses, so the tests share one database safely. */
function uniqueName(base: string): string {
  return `${base} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

test.describe("workflows list", () => {
  test("shows the seeded demo workflow", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();

    await expect(workflows.heading).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" })).toHaveAttribute("aria-current", "page");

    const demo = workflows.workflow("Demo: unit conversion agent");
    await expect(demo).toBeVisible();
    await expect(demo).toContainText("offline model");
    await expect(demo).toContainText("Last updated");
    await expect(workflows.workflowLink("Demo: unit conversion agent")).toHaveAttribute("href", "/workflows/demo");
  });

  test("the header navigates to the node catalogue", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Nodes" }).click();
    await expect(page).toHaveURL(/\/nodes$/);
    await expect(page.getByRole("heading", { level: 1, name: "Node catalogue" })).toBeVisible();
  });

  test("creates, renames, duplicates and deletes a workflow, asking before the delete", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    const name = uniqueName("List test");
    await workflows.goto();
    const id = await workflows.createWorkflow(name);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

    await workflows.goto();
    await expect(workflows.workflowLink(name)).toHaveAttribute("href", `/workflows/${id}`);

    const renamed = `${name} renamed`;
    await workflows.action(name, "Rename").click();
    const nameField = page.getByLabel(`New name for ${name}`);
    await nameField.fill("");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(workflows.workflow(name).getByRole("alert")).toHaveText("Give the workflow a name.");
    await nameField.fill(renamed);
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(workflows.workflowLink(renamed)).toBeVisible();
    await expect(workflows.workflowLink(name)).toHaveCount(0);

    await workflows.action(renamed, "Duplicate").click();
    await expect(workflows.workflowLink(`${renamed} (copy)`)).toBeVisible();

    await workflows.action(`${renamed} (copy)`, "Delete").click();
    const dialog = page.getByRole("dialog", { name: `Delete “${renamed} (copy)”?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(workflows.workflowLink(`${renamed} (copy)`)).toBeVisible();

    await workflows.action(`${renamed} (copy)`, "Delete").click();
    await dialog.getByRole("button", { name: "Delete workflow" }).click();
    await expect(workflows.workflowLink(`${renamed} (copy)`)).toHaveCount(0);
    await expect(workflows.workflowLink(renamed)).toBeVisible();
  });

  test("exports a workflow as JSON and imports it back as a new workflow", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();

    const downloading = page.waitForEvent("download");
    await workflows.exportLink("Demo: unit conversion agent").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("demo-unit-conversion-agent.json");
    const text = await readFile(await download.path(), "utf8");
    const exported = JSON.parse(text);
    expect(exported).toMatchObject({ version: 1, name: "Demo: unit conversion agent" });
    expect(exported.nodes.map((node: { id: string }) => node.id)).toEqual(["start", "agent", "converter", "end"]);

    const importedName = uniqueName("Imported demo");
    await workflows.importJson("demo.json", JSON.stringify({ ...exported, name: importedName }));
    await expect(workflows.importStatus).toContainText(`Imported “${importedName}” as a new workflow.`);
    await expect(workflows.workflowLink(importedName)).toBeVisible();
    await expect(workflows.workflowLink("Demo: unit conversion agent")).toBeVisible();

    await workflows.importStatus.getByRole("link", { name: `Open ${importedName}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: importedName })).toBeVisible();
    await expect(page.getByRole("application", { name: "Workflow canvas" }).locator(".react-flow__node")).toHaveCount(4);
  });

  test("refuses a bad import with its problems listed, and changes nothing", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const before = await workflows.list.getByRole("listitem").count();

    const broken = {
      version: 1,
      name: uniqueName("Broken import"),
      nodes: [
        { id: "agent", type: "offline-agent", position: { x: 0, y: 0 }, config: { maxTurns: 99 } },
        { id: "mystery", type: "no-such-node", position: { x: 200, y: 0 } },
      ],
      edges: [{ id: "e1", kind: "service", source: "agent", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" }],
    };
    await workflows.importJson("broken.json", JSON.stringify(broken));
    const alert = page.getByRole("alert").filter({ hasText: "cannot be imported" });
    await expect(alert).toContainText("Nothing was imported.");
    await expect(workflows.importProblems.getByRole("listitem").filter({ hasText: "unknown-node-type" })).toContainText("no-such-node");
    await expect(workflows.importProblems.getByRole("listitem").filter({ hasText: "config-invalid" })).toContainText("Max turns");

    await workflows.importJson("not-json.json", "{ this is not json");
    await expect(page.getByRole("alert").filter({ hasText: "The file is not JSON" })).toBeVisible();

    await workflows.importJson("shape.json", JSON.stringify({ version: 2, nodes: "none" }));
    await expect(workflows.importProblems.getByRole("listitem").first()).toContainText("invalid-workflow");
    // In plain words, naming the field: no validator text.
    await expect(workflows.importProblems).toContainText('"version" must be 1 (the workflow format this app reads), but it is 2.');
    await expect(workflows.importProblems).toContainText('"nodes" must be a list, but it is the text "none".');
    await expect(workflows.importProblems).not.toContainText("Invalid input");

    await workflows.importJson("package.json", JSON.stringify({ name: "left-pad", dependencies: {} }));
    await expect(workflows.importProblems).toContainText('This file is not a Switchboard workflow: it is a JSON object with the fields "name", "dependencies", and none of a workflow\'s.');

    await page.reload();
    await expect(workflows.list.getByRole("listitem")).toHaveCount(before);
    await expect(workflows.workflowLink(broken.name)).toHaveCount(0);
  });
});
