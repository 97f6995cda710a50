import { expect, type Page, test } from "@playwright/test";
import { chromiumArgs, fullBrowserPath } from "./support/chromium-path";
import { docsScreenshot } from "./support/docs-screenshot";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { ServerFormPage } from "./pages/servers-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { agentServerWorkflow } from "./fixtures/agent-server-workflow";

// Issue 25, deliverable 4: a tool's MCP App (a ui:// resource) in a sandboxed frame on the trace row, in the
// approval form and in the chat bubble; the frame's calls go through the agent's grants, approvals and trace. The real server is the
// extension's example (@modelcontextprotocol/server-basic-vanillajs, catalogue entry "basic-app"); the hostile
// frame comes from a test double (testing/mcp/app-server.fixture.mjs, catalogue entry "app-fixture").

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Registers a catalogued stdio server, imports a workflow using it, grants the server: the workflow's id. */
async function setUp(page: Page, options: { catalogue: string; toolNames: string[] }): Promise<{ serverId: string; workflowId: string }> {
  const suffix = uniqueSuffix();
  const serverId = `${options.catalogue}-${suffix}`;
  const form = new ServerFormPage(page);
  await form.gotoNew();
  await form.fill({ Name: `App ${suffix}`, Id: serverId, "Catalogue entry": options.catalogue });
  await form.submit();
  await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${serverId}$`));
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  const name = `Apps ${suffix}`;
  await workflows.importJson("apps.json", JSON.stringify(agentServerWorkflow(name, serverId, options.toolNames)));
  const open = workflows.importStatus.getByRole("link", { name: `Open ${name}` });
  const workflowId = decodeURIComponent((await open.getAttribute("href"))!.split("/").pop()!);
  await open.click();
  const grant = page.getByRole("button", { name: /^Grant .* to this workflow$/ });
  await grant.click();
  await expect(grant).toHaveCount(0, { timeout: 30_000 });
  return { serverId, workflowId };
}

test.use({ viewport: { width: 1440, height: 900 } });
// In the full browser: in the headless shell the peek app's frame on the trace sometimes loads a second time, so its
// on-load call is made twice (seen in 5 of 14 repeats, 0 of 4 in the full browser); until that is understood and fixed,
// these specs run where the product's users are.
test.use({ launchOptions: { executablePath: fullBrowserPath(), args: chromiumArgs } });

test("the example server's app: shown in the approval form with the input, then on the trace row with the result; its own call is approved in place and traced", async ({ page }) => {
  test.setTimeout(240_000);
  const { serverId, workflowId } = await setUp(page, { catalogue: "basic-app", toolNames: ["get-time"] });
  const runs = new RunsPage(page);
  await runs.goto(workflowId);
  const runId = await runs.run({ question: "get the time" });
  const run = new RunPage(page);

  // get-time carries no annotations: by the protocol's defaults it may be destructive, so the default policy asks.
  const title = `App of tool get-time (${serverId})`;
  const waitingFrame = page.getByTitle(title);
  await expect(waitingFrame).toBeVisible({ timeout: 60_000 });
  await expect(page.frameLocator(`iframe[title="${title}"]`).getByRole("button", { name: "Get Server Time" })).toBeVisible({ timeout: 30_000 });
  await expect(waitingFrame).toHaveAttribute("sandbox", "allow-scripts");
  // From the keyboard: the frame above the button may still grow to its content (size-changed), moving the button under a click.
  await page.getByRole("button", { name: "Approve", exact: true }).press("Enter");
  await expect(run.status).toContainText("completed", { timeout: 60_000 });

  await page.reload();
  await run.showCall("get-time").click();
  const detail = page.getByRole("region", { name: "Arguments and result of call get-time" });
  const frame = page.frameLocator(`iframe[title="${title}"]`);
  await expect(detail.getByTitle(title)).toBeVisible({ timeout: 30_000 });
  // The app received the call's result (an ISO time) over the bridge and shows it.
  await expect(frame.locator("body")).toContainText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });
  await detail.getByTitle(title).scrollIntoViewIfNeeded();
  await docsScreenshot(page, "mcp-app");

  // The frame asks the host for get-time: the same policy asks the person at the frame, then the call is made and traced.
  await frame.getByRole("button", { name: "Get Server Time" }).click();
  await detail.getByRole("button", { name: "Approve the app's call of get-time" }).click();
  await expect(detail.getByRole("status").filter({ hasText: "The app called get-time." })).toBeVisible({ timeout: 30_000 });
  await page.goto(`/runs/${runId}`);
  await expect(run.trace.getByText("called by app:agent").first()).toBeVisible({ timeout: 30_000 });
  await expect(run.trace.getByRole("button", { name: "Show call get-time", exact: true })).toHaveCount(2);
  await expect(run.trace.getByRole("button", { name: "Show call approval", exact: true }).first()).toBeVisible();
});

test("the example server's app in the chat bubble: shown once the call has its result; its own call is traced on the turn's run", async ({ page }) => {
  test.setTimeout(240_000);
  const { serverId, workflowId } = await setUp(page, { catalogue: "basic-app", toolNames: ["get-time"] });
  await page.goto(`/workflows/${encodeURIComponent(workflowId)}/chat`);
  await page.getByRole("textbox", { name: "Message" }).fill("get the time");
  await page.getByRole("button", { name: "Send" }).click();
  const bubble = page.locator('li[data-role="assistant"]').first();
  // The same policy as on the run page asks about get-time; it is approved in the bubble.
  await bubble.getByRole("button", { name: /^Approve the call to / }).click({ timeout: 60_000 });
  const title = `App of tool get-time (${serverId})`;
  await expect(bubble.getByTitle(title)).toBeVisible({ timeout: 60_000 });
  await expect(bubble.getByTitle(title)).toHaveAttribute("sandbox", "allow-scripts");
  // Its document comes from its own route, with the policy its resource declares (app/app-frame/app-frame.test.ts checks the header).
  await expect(bubble.getByTitle(title)).toHaveAttribute("src", new RegExp(`^/app-frame/[0-9a-f-]{36}\\?server=${serverId}&tool=get-time$`));
  const frame = page.frameLocator(`iframe[title="${title}"]`);
  // The app received the call's result over the bridge and shows it.
  await expect(frame.locator("body")).toContainText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });

  await frame.getByRole("button", { name: "Get Server Time" }).click();
  await bubble.getByRole("button", { name: "Approve the app's call of get-time" }).click();
  await expect(bubble.getByRole("status").filter({ hasText: "The app called get-time." })).toBeVisible({ timeout: 30_000 });

  const runs = new RunsPage(page);
  await runs.goto(workflowId);
  await runs.table.getByRole("link", { name: /^Open run / }).first().click();
  const run = new RunPage(page);
  await expect(run.trace.getByText("called by app:agent").first()).toBeVisible({ timeout: 30_000 });
  await expect(run.trace.getByRole("button", { name: "Show call get-time", exact: true })).toHaveCount(2);
});

test("a frame that reaches for the page's DOM and cookies is blocked; a tool its agent was not given is refused, on the trace", async ({ page }) => {
  test.setTimeout(240_000);
  const { serverId, workflowId } = await setUp(page, { catalogue: "app-fixture", toolNames: ["peek", "report"] });
  await page.context().addCookies([{ name: "switchboard_probe", value: "host-secret", url: page.url() }]);
  const runs = new RunsPage(page);
  await runs.goto(workflowId);
  const runId = await runs.run({ question: "peek" });
  const run = new RunPage(page);
  await expect(run.status).toContainText("completed", { timeout: 60_000 });
  await run.showCall("peek").click();
  const title = `App of tool peek (${serverId})`;
  const frame = page.frameLocator(`iframe[title="${title}"]`);
  const outcome = frame.locator("#outcome");
  await expect(outcome).toContainText("parent.document blocked: SecurityError", { timeout: 30_000 });
  await expect(outcome).toContainText("document.cookie blocked: SecurityError");
  await expect(outcome).not.toContainText("host-secret");
  await expect(frame.locator("#calls")).toHaveText("report: called; secret: refused", { timeout: 30_000 });

  await page.goto(`/runs/${runId}`);
  await run.showCall("report").click();
  const report = page.getByRole("region", { name: "Arguments and result of call report" });
  await expect(report).toContainText("blocked: SecurityError");
  await run.showCall("secret").click();
  await expect(page.getByRole("region", { name: "Arguments and result of call secret" })).toContainText(`Refused a call from the app: the tool 'secret' of server '${serverId}' is not given to agent 'agent'`);
});
