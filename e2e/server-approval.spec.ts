import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { ServerFormPage } from "./pages/servers-page";
import { docsScreenshot } from "./support/docs-screenshot";
import { WorkflowsPage } from "./pages/workflows-page";


test.use({ viewport: { width: 1440, height: 900 } });

test.describe("a server's approval defaults", () => {
  test("are set on the server's page (bad input named, nothing saved), and shown on a wired edge without its own policy as from server default", async ({ page }) => {
    test.setTimeout(180_000);
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const serverId = `approving-${suffix}`;
    const serverName = `Approving ${suffix}`;
    const form = new ServerFormPage(page);
    await form.gotoNew();
    await form.fill({ Name: serverName, Id: serverId, "Catalogue entry": "everything" });
    await form.submit();
    await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${serverId}$`));

    await page.goto(`/servers/${serverId}`);
    const defaults = page.getByRole("region", { name: "Approval defaults" });
    await defaults.getByLabel(`Every tool of ${serverName}`).selectOption({ label: "Ask a person before every call" });
    const perTool = defaults.getByLabel("Per tool (JSON, wins over the above)");
    await perTool.fill('{ "echo": { "decide": "sometimes" } }');
    await defaults.getByRole("button", { name: `Save approval defaults of ${serverName}` }).click();
    await expect(defaults.getByRole("status")).toContainText("tools.echo.decide: must be one of allow, ask, deny, rules");
    await expect(perTool).toHaveAttribute("aria-invalid", "true");
    await page.reload();
    await expect(page.getByRole("region", { name: "Approval defaults" }).getByLabel(`Every tool of ${serverName}`)).toHaveValue("");

    const saved = page.getByRole("region", { name: "Approval defaults" });
    await saved.getByLabel(`Every tool of ${serverName}`).selectOption({ label: "Ask a person before every call" });
    await saved.getByLabel("Per tool (JSON, wins over the above)").fill('{ "echo": "allow" }');
    await saved.getByRole("button", { name: `Save approval defaults of ${serverName}` }).click();
    await expect(saved.getByRole("status")).toContainText("Saved: these defaults apply");
    await page.reload();
    await expect(page.getByRole("region", { name: "Approval defaults" }).getByLabel(`Every tool of ${serverName}`)).toHaveValue("ask");
    await docsScreenshot(page, "server-approval-defaults", { fullPage: true });

    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const workflowName = `Approval defaults ${suffix}`;
    const fixture = JSON.parse(await readFile("e2e/fixtures/echo-agent-workflow.json", "utf8"));
    await workflows.importJson("echo-agent.json", JSON.stringify({ ...fixture, name: workflowName }));
    await workflows.importStatus.getByRole("link", { name: `Open ${workflowName}` }).click();
    const canvas = new CanvasPage(page);
    await expect(canvas.canvas).toBeVisible();
    await canvas.search.fill(serverName);
    const item = canvas.palette.getByRole("region", { name: "MCP servers" }).getByRole("listitem", { name: serverName, exact: true });
    await item.getByRole("button", { name: `Add ${serverName}` }).click();
    await canvas.connect(canvas.handle(`Tool provider "tools" of ${serverId} (offers tools)`), canvas.handle('Tool socket "mcpService" of agent (consumes tools)'));
    const badge = "ask, echo: allow (from server default)";
    const edge = canvas.edge(`Service edge from ${serverId}.tools to agent.mcpService, approval policy ${badge}`);
    await expect(edge).toBeVisible();
    await expect(canvas.canvas.getByText(`approval: ${badge}`)).toBeVisible();

    await canvas.select("agent");
    const policies = canvas.inspector.getByRole("region", { name: "Approval policies of agent" });
    await expect(policies).toContainText(`Applies now: ${badge}, set on the server's page.`);
    // The edge's own policy wins: its badge is its own.
    await policies.getByLabel(`Tools from ${serverId}`).selectOption({ label: "Deny every call" });
    await expect(canvas.edge(`Service edge from ${serverId}.tools to agent.mcpService, approval policy deny`)).toBeVisible();
    await expect(policies).toContainText(`Overridden here: ${badge}`);
  });
});
