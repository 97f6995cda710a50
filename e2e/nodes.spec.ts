import { expect, test } from "@playwright/test";
import { NodesPage } from "./pages/nodes-page";

test.describe("node catalogue", () => {
  test("lists every node type with its lint summary", async ({ page }) => {
    const nodes = new NodesPage(page);
    await nodes.goto();

    await expect(nodes.heading).toBeVisible();
    await expect(nodes.summary).toContainText(/\d+ nodes/);
    await expect(nodes.nodeHeading("Unit Converter")).toBeVisible();
    await expect(nodes.nodeHeading("Offline agent (built-in test model)")).toBeVisible();

    const agent = nodes.node("Offline agent (built-in test model)");
    await expect(agent.getByText("CallbackNode", { exact: true })).toBeVisible();
    await expect(agent.getByText("offline", { exact: true })).toBeVisible();
    await expect(agent.getByText("Consumes tools")).toBeVisible();
    await expect(nodes.node("Unit Converter").getByText("Offers tools")).toBeVisible();
  });

  test("filters nodes with the search box", async ({ page }) => {
    const nodes = new NodesPage(page);
    await nodes.goto();
    await expect(nodes.nodeHeading("Unit Converter")).toBeVisible();
    await expect(nodes.nodeHeading("Offline agent (built-in test model)")).toBeVisible();

    await nodes.filter("unit");
    await expect(nodes.nodeHeading("Unit Converter")).toBeVisible();
    await expect(nodes.nodeHeading("Offline agent (built-in test model)")).toBeHidden();
    await expect(nodes.status).toContainText(/^1 of \d+ nodes match$/);

    await nodes.filter("agents");
    await expect(nodes.nodeHeading("Offline agent (built-in test model)")).toBeVisible();
    await expect(nodes.nodeHeading("Unit Converter")).toBeHidden();

    await nodes.filter("no such node anywhere");
    await expect(page.getByText("No node matches “no such node anywhere”")).toBeVisible();

    await nodes.filter("");
    await expect(nodes.nodeHeading("Unit Converter")).toBeVisible();
    await expect(nodes.nodeHeading("Offline agent (built-in test model)")).toBeVisible();
  });

  test("shows a method's parameters as a table", async ({ page }) => {
    const nodes = new NodesPage(page);
    await nodes.goto();

    await expect(nodes.parameters("Unit Converter", "convertUnits")).toBeVisible();
    const value = nodes.parameter("Unit Converter", "convertUnits", "value");
    await expect(value.getByRole("cell").nth(0)).toHaveText("number");
    await expect(value.getByRole("cell").nth(1)).toHaveText("required");
    await expect(value.getByRole("cell").nth(2)).toContainText("The amount to convert");

    const dimension = nodes.parameter("Unit Converter", "listUnits", "dimension");
    await expect(dimension.getByRole("cell").nth(1)).toHaveText("optional");
    await expect(dimension.getByRole("cell").nth(2)).toContainText("temperature");
  });
});
