import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { fixtureSecretWord, type OAuthFixture, startOAuthFixture } from "../testing/mcp/oauth-server.fixture";
import { CanvasPage } from "./pages/canvas-page";
import { ServerFormPage, ServersPage } from "./pages/servers-page";
import { WorkflowsPage } from "./pages/workflows-page";

// The port playwright.config.ts allows past the private-address rule (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS).
const fixturePort = Number(process.env.E2E_PORT ?? 3217) + 1000;

let fixture: OAuthFixture;
test.beforeAll(async () => {
  fixture = await startOAuthFixture({ port: fixturePort });
});
test.afterAll(async () => fixture?.close());

test.use({ viewport: { width: 1440, height: 900 } });

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

async function runOnCanvas(page: Page, canvas: CanvasPage, question: string) {
  await canvas.command("Run").click();
  const dialog = page.getByRole("dialog", { name: "Run the workflow" });
  await dialog.getByLabel(/^question/).fill(question);
  await dialog.getByRole("button", { name: "Start run" }).click();
  await expect(dialog).toBeHidden();
  return page.getByRole("region", { name: "Current run" });
}

test.describe("OAuth to a remote MCP server", () => {
  test("connect through the provider's consent page, run the protected tool, refresh an expired token, and show 'reconnect' once the refresh token is revoked", async ({ page }) => {
    test.setTimeout(240_000);
    const suffix = uniqueSuffix();
    const serverId = `protected-${suffix}`;
    const serverName = `Protected ${suffix}`;

    const form = new ServerFormPage(page);
    await form.gotoNew();
    await form.fill({ Name: serverName, Id: serverId, Transport: "http" });
    await form.fill({ URL: fixture.mcpUrl });
    await form.field("Authorization").selectOption("authorization_code");
    await form.submit();
    await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${serverId}$`));

    const servers = new ServersPage(page);
    const card = servers.server(serverName);
    await expect(card.getByRole("list", { name: "Status" })).toContainText("OAuth: not connected");

    // Connect: the browser goes to the provider's consent page and comes back to the app's callback.
    await card.getByRole("button", { name: `Connect ${serverName}` }).click();
    await expect(page.getByRole("heading", { name: "Allow access?" })).toBeVisible({ timeout: 30_000 });
    expect(new URL(page.url()).origin).toBe(fixture.origin);
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL(new RegExp(`/servers\\?oauth=${serverId}$`));
    await expect(page.getByRole("status").filter({ hasText: `Connected ${serverName}.` })).toBeVisible();
    await expect(card.getByRole("list", { name: "Status" })).toContainText("OAuth: connected");
    expect(fixture.counts.consents).toBe(1);
    // No token reaches the browser.
    expect(await page.content()).not.toMatch(/\b(at|rt)-[0-9a-f]{24}\b/);

    // A workflow whose agent calls the protected tool.
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const workflowName = `Secret word ${suffix}`;
    const document = JSON.parse((await readFile("e2e/fixtures/oauth-agent-workflow.json", "utf8")).replaceAll("SERVER_ID", serverId));
    await workflows.importJson("oauth-agent.json", JSON.stringify({ ...document, name: workflowName }));
    await workflows.importStatus.getByRole("link", { name: `Open ${workflowName}` }).click();
    const canvas = new CanvasPage(page);
    // A registered server is used by a workflow only once someone grants it (issue 10).
    await canvas.node("protected").getByRole("button", { name: /^Grant .* to this workflow$/ }).click();
    await expect(canvas.node("protected")).toContainText("1 of 1 tool: secret_word", { timeout: 30_000 });

    let run = await runOnCanvas(page, canvas, "what is the secret word");
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 60_000 });
    await expect(canvas.node("end").getByRole("button", { name: /^result / })).toContainText(fixtureSecretWord);
    expect(fixture.counts.refreshToken).toBe(0);

    // The access token expires: the next run refreshes it on its own.
    fixture.expireAccessTokens();
    run = await runOnCanvas(page, canvas, "what is the secret word");
    await expect(run.getByRole("status")).toContainText("completed", { timeout: 60_000 });
    await expect(canvas.node("end").getByRole("button", { name: /^result / })).toContainText(fixtureSecretWord);
    expect(fixture.counts.refreshToken).toBe(1);

    // The refresh token is revoked at the provider: the run says which server to reconnect, and the server shows it.
    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    run = await runOnCanvas(page, canvas, "what is the secret word");
    await expect(run.getByRole("status")).toContainText("failed", { timeout: 60_000 });
    await expect(page.getByText(`Reconnect MCP server '${serverId}'`).first()).toBeVisible();

    await servers.goto();
    await expect(card.getByRole("list", { name: "Status" })).toContainText("OAuth: reconnect");
    await expect(card).toContainText("Reconnect needed: its OAuth authorization expired or was revoked");
    await expect(card.getByRole("button", { name: `Reconnect ${serverName}` })).toBeVisible();

    await page.goBack();
    await page.reload();
    await expect(canvas.node("protected")).toContainText("Reconnect needed");
  });

  test("a callback whose state this browser did not start stores nothing and says so in one line", async ({ page }) => {
    await page.goto("/servers/oauth/callback?code=stolen&state=forged");
    await expect(page.getByRole("alert").filter({ hasText: "Connecting failed" })).toHaveText(/^Connecting failed: this browser started no authorization/);
  });
});
