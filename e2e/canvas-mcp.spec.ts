import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { RunPage } from "./pages/run-page";
import { ServerFormPage } from "./pages/servers-page";
import { WorkflowsPage } from "./pages/workflows-page";


test.use({ viewport: { width: 1440, height: 900 } });

/** An id no earlier run has used, so the test stands alone even against a database that was not reset. */
function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

test.describe("MCP servers on the canvas", () => {
  test("a registered server is found in the palette, wired to an agent with two of its tools, runs echo, and survives export and import", async ({ page }) => {
    test.setTimeout(180_000);
    const suffix = uniqueSuffix();
    const serverId = `everything-${suffix}`;
    const serverName = `Everything ${suffix}`;
    const form = new ServerFormPage(page);
    await form.gotoNew();
    await form.fill({ Name: serverName, Id: serverId, "Catalogue entry": "everything" });
    await form.submit();
    await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${serverId}$`));

    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const workflowName = `Echo agent ${suffix}`;
    const fixture = JSON.parse(await readFile("e2e/fixtures/echo-agent-workflow.json", "utf8"));
    await workflows.importJson("echo-agent.json", JSON.stringify({ ...fixture, name: workflowName }));
    await workflows.importStatus.getByRole("link", { name: `Open ${workflowName}` }).click();
    const canvas = new CanvasPage(page);
    await expect(canvas.canvas).toBeVisible();
    await expect(canvas.node("agent")).toContainText("no tools");

    // Found by a tool's name: searching lists the servers' tools.
    await canvas.search.fill("echo");
    const servers = canvas.palette.getByRole("region", { name: "MCP servers" });
    const item = servers.getByRole("listitem", { name: serverName, exact: true });
    await expect(item).toContainText("Tools: echo", { timeout: 30_000 });
    await canvas.search.fill(serverName);
    await expect(item).toBeVisible();
    await item.getByRole("button", { name: `Add ${serverName}` }).click();
    const serverNode = canvas.node(serverId);
    await expect(serverNode).toContainText(serverName);
    // Registered is not granted: this workflow may use the server only once someone grants it.
    await expect(serverNode).toContainText("Not granted to this workflow");
    await serverNode.getByRole("button", { name: `Grant ${serverName} to this workflow` }).click();
    await expect(serverNode).toContainText(/All \d+ tools/, { timeout: 30_000 });
    await expect(serverNode).not.toContainText("Not granted");

    await canvas.connect(canvas.handle(`Tool provider "tools" of ${serverId} (offers tools)`), canvas.handle('Tool socket "mcpService" of agent (consumes tools)'));
    await expect(canvas.edge(`Service edge from ${serverId}.tools to agent.mcpService`)).toBeVisible();

    await canvas.select(serverId);
    const picker = canvas.inspector.getByRole("form", { name: `Settings of ${serverId}` });
    await picker.getByRole("radio", { name: "Only the ticked tools" }).check();
    const tools = picker.getByRole("list", { name: "Tools of the server" });
    await expect(tools.getByText("Echoes back the input string")).toBeVisible();
    await tools.getByRole("checkbox", { name: "echo", exact: true }).check();
    await tools.getByRole("checkbox", { name: "get-sum", exact: true }).check();
    await tools.getByText("Input schema of echo").click();
    await expect(tools.getByRole("group").filter({ hasText: "Input schema of echo" })).toContainText('"message"');
    await expect(serverNode).toContainText(/2 of \d+ tools: echo, get-sum/);

    await canvas.select("agent");
    const agentTools = canvas.inspector.getByRole("list", { name: "Tools of agent" });
    await expect(agentTools.getByRole("listitem")).toHaveText([/^echo from .+ ≈\d+ tok$/, /^get-sum from .+ ≈\d+ tok$/]);
    await expect(canvas.node("agent")).toContainText(/2 tools · ≈\d+ tok/);
    await canvas.expectSaved();

    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    const question = dialog.getByLabel(/^question/);
    await expect(question).toBeFocused();
    await question.fill("echo hello switchboard");
    await dialog.getByRole("button", { name: "Start run" }).click();
    await expect(dialog).toBeHidden();

    const run = page.getByRole("region", { name: "Current run" });
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 60_000 });
    const calls = run.getByRole("list", { name: "Tool calls of the run" });
    const echoCall = calls.getByRole("link", { name: new RegExp(`^echo on ${serverId}, called by agent: open in the trace$`) });
    await expect(echoCall).toBeVisible();
    await expect(canvas.node("end").getByRole("button", { name: /^result / })).toContainText("Echo: echo hello switchboard");
    await expect(canvas.messages).toContainText("The run completed with 1 tool call");

    await echoCall.click();
    const trace = new RunPage(page);
    await expect(trace.heading).toHaveText(`Run of ${workflowName}`);
    // The link opens that call: its arguments and result are shown.
    await expect(page.getByRole("region", { name: "Arguments and result of call echo" })).toContainText("echo hello switchboard");
    await expect(trace.hideCall("echo")).toBeVisible();

    // Export, then import: the server node, its tool choice and its wiring come back.
    const workflowId = decodeURIComponent(new URL((await page.getByRole("link", { name: "Open the workflow on the canvas" }).getAttribute("href")) ?? "", page.url()).pathname.split("/").pop()!);
    const exported = await (await page.request.get(`/workflows/${encodeURIComponent(workflowId)}/export`)).json();
    // The grant is listed on the workflow's Grants page, with who granted it.
    await page.goto(`/workflows/${encodeURIComponent(workflowId)}/grants`);
    const granted = page.getByRole("region", { name: "Granted" });
    await expect(granted.getByRole("listitem").filter({ hasText: serverId })).toContainText("granted by owner@e2e.test");
    await expect(granted.getByRole("button", { name: `Revoke server ${serverId}` })).toBeVisible();
    expect(exported.nodes).toContainEqual(expect.objectContaining({ id: serverId, type: "mcp-server", config: { serverId, toolNames: ["echo", "get-sum"] } }));
    expect(exported.edges).toContainEqual(expect.objectContaining({ kind: "service", source: serverId, sourceHandle: "tools", target: "agent", targetHandle: "mcpService" }));
    await workflows.goto();
    const importedName = `${workflowName} (re-imported)`;
    await workflows.importJson("exported.json", JSON.stringify({ ...exported, name: importedName }));
    await workflows.importStatus.getByRole("link", { name: `Open ${importedName}` }).click();
    await expect(canvas.edge(`Service edge from ${serverId}.tools to agent.mcpService`)).toBeVisible();
    // The wiring comes back, the grant does not: an imported document brings none.
    await expect(canvas.node(serverId)).toContainText("Not granted to this workflow");
    await expect(canvas.node(serverId).getByRole("button", { name: `Grant ${serverName} to this workflow` })).toBeVisible();
  });

  test("an agent's old tools: [{ type: mcp }] list opens as a wired server node, and a missing server shows on the node", async ({ page }) => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const name = `Old MCP form ${uniqueSuffix()}`;
    const fixture = JSON.parse(await readFile("e2e/fixtures/echo-agent-workflow.json", "utf8"));
    fixture.nodes[1].tools = [{ type: "mcp", serverId: "never-registered", toolNames: ["echo"] }];
    await workflows.importJson("old.json", JSON.stringify({ ...fixture, name }));
    await workflows.importStatus.getByRole("link", { name: `Open ${name}` }).click();
    const canvas = new CanvasPage(page);
    const node = canvas.node("never-registered");
    await expect(node).toContainText("Not in the registry");
    // Drawn straight down from the agent, the edge has no width: count it rather than ask whether it is visible.
    await expect(canvas.edge("Service edge from never-registered.tools to agent.mcpService")).toHaveCount(1);
    await canvas.select("never-registered");
    await expect(canvas.inspector.getByRole("region", { name: "Problems of never-registered" })).toContainText('The MCP server "never-registered" is not in the registry');
    await canvas.command("Run").click();
    const dialog = page.getByRole("dialog", { name: "Run the workflow" });
    await expect(dialog.getByRole("button", { name: "Start run" })).toBeDisabled();
    await expect(dialog.getByRole("list", { name: "Errors to fix before running" })).toContainText("not in the registry");
  });
});
