import AxeBuilder from "@axe-core/playwright";
import { axeViolations } from "./support/axe";
import { expect, type Page, test } from "@playwright/test";
import { seedAskingWorkflow, seedTaintedWaitingRun } from "./fixtures/seed-approvals";
import { ApprovalCard, ApprovalsPage } from "./pages/approvals-page";
import { CanvasPage } from "./pages/canvas-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { addPerson, signedInAs } from "./support/accounts";
import { docsScreenshot } from "./support/docs-screenshot";

// The demo's offline model calls convertUnits once; the workflow's policy asks before every call of its agent.
const question = "Convert 26.2 mile to kilometre";

/** Starts a run of the asking workflow and waits until it waits for approval; the run page is open. */
async function startWaitingRun(page: Page): Promise<string> {
  const runs = new RunsPage(page);
  await runs.goto("approvals-demo");
  const runId = await runs.run({ question });
  await expect(new RunPage(page).status).toContainText("waiting for approval", { timeout: 30_000 });
  return runId;
}

/** The decision form on a run's own page. */
function runPageCard(page: Page): ApprovalCard {
  return new ApprovalCard(page.getByRole("region", { name: /^Waiting for approval/ }).getByRole("article"));
}

async function expectCompleted(page: Page, runId: string, answer: string | RegExp): Promise<RunPage> {
  const run = new RunPage(page);
  await run.goto(runId);
  await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
  await expect(run.overview.getByRole("region", { name: "Run output" })).toContainText(answer);
  return run;
}

/** After a decision on the run page: the page reloads by itself and follows the run to its end. */
async function expectCompletedHere(page: Page, answer: string | RegExp): Promise<void> {
  await expect(page.getByRole("region", { name: /^Waiting for approval/ })).toBeHidden({ timeout: 30_000 });
  const run = new RunPage(page);
  await expect(run.status).toContainText("Completed in", { timeout: 30_000 });
  await expect(run.overview.getByRole("region", { name: "Run output" })).toContainText(answer);
}

/** Controls without an accessible name, and other serious axe-core findings. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => `${violation.id}: ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ")}`);
}

test.describe("approvals: a person decides a call an approval policy stopped", () => {
  // Each test runs several workflows to their end through the worker.
  test.describe.configure({ timeout: 240_000 });
  test.beforeAll(async () => {
    await seedAskingWorkflow();
  });

  test("a runner approves from the Approvals page; a viewer sees the waiting call without the form", async ({ page, browser, baseURL }) => {
    const runId = await startWaitingRun(page);
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const runner = { email: `runner-${tag}@e2e.test`, password: "runner password 1" };
    const viewer = { email: `viewer-${tag}@e2e.test`, password: "viewer password 1" };
    await addPerson(page, runner.email, "runner", runner.password);
    await addPerson(page, viewer.email, "viewer", viewer.password);

    const viewerContext = await signedInAs(browser, baseURL!, viewer.email, viewer.password);
    const viewerApprovals = new ApprovalsPage(await viewerContext.newPage());
    await viewerApprovals.goto();
    const seen = viewerApprovals.card(runId);
    await expect(seen.root).toContainText("A runner or above decides this call.");
    await expect(seen.approve).toHaveCount(0);
    await viewerContext.close();

    const runnerContext = await signedInAs(browser, baseURL!, runner.email, runner.password);
    const runnerApprovals = new ApprovalsPage(await runnerContext.newPage());
    await runnerApprovals.goto();
    await runnerApprovals.card(runId).approve.click();
    await expect(runnerApprovals.notice).toContainText("Approved; the run is queued to go on.");
    await runnerContext.close();

    const done = await expectCompleted(page, runId, "42.1648128");
    await done.showCall("approval").click();
    await expect(done.callArguments("approval")).toContainText(`"by": "${runner.email}"`);
  });

  test("from the Approvals page: approve, deny with a reason, edit the arguments and approve; tainted arguments show where they came from", async ({ page }) => {
    const approveRun = await startWaitingRun(page);
    const denyRun = await startWaitingRun(page);
    const editRun = await startWaitingRun(page);
    const attack = await seedTaintedWaitingRun();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }).click();
    const approvals = new ApprovalsPage(page);
    await expect(approvals.heading).toHaveText("Approvals");

    // The attack: the mail's address came from the inbox the agent read; the card says so and links to that result.
    const mail = approvals.card(attack.runId);
    await expect(mail.root.getByRole("heading", { level: 3 })).toHaveText("mail/send_email called by clerk");
    await expect(mail.root).toContainText("the agent's context holds tainted content");
    await expect(mail.root).toContainText("rules: tainted→ask, destructive→ask");
    // Why it was held: a tainted context, linked to the trace row the outside content came from.
    const causes = mail.root.getByRole("list", { name: "Why send_email was held" });
    await expect(causes).toContainText("tainted context");
    await expect(causes.getByRole("link", { name: "The tainted result of mail/read_inbox in the agent's context: open in the trace" })).toHaveAttribute("href", `/runs/${attack.runId}?call=${attack.readCallId}`);
    await expect(mail.argument("to")).toContainText("attacker@example.com");
    await expect(mail.argument("to")).toContainText("tainted");
    await expect(mail.argument("to").getByRole("link", { name: "The mail/read_inbox result to came from: open in the trace" })).toHaveAttribute("href", `/runs/${attack.runId}?call=${attack.readCallId}`);
    await expect(mail.argument("subject")).toContainText("the agent had read outside content");
    expect(await seriousViolations(page)).toEqual([]);
    // Any impact, WCAG 2.2 AA included, on the page with waiting calls of every kind.
    expect(await axeViolations(page)).toEqual([]);
    await docsScreenshot(page, "approvals", { fullPage: true });

    // Approve as it is.
    const approve = approvals.card(approveRun);
    await expect(approve.argument("value")).toContainText("26.2");
    await expect(approve.argument("value")).toContainText("clean");
    await approve.approve.click();
    await expect(approvals.notice).toContainText("Approved; the run is queued to go on.");
    await expect(approve.root).toHaveCount(0);

    // Deny: a reason is needed; the model receives it.
    const deny = approvals.card(denyRun);
    await deny.deny.click();
    await expect(deny.error).toHaveText("Say why the call is denied: the model receives the reason.");
    await deny.reason.fill("Use metres, not kilometres");
    await deny.deny.click();
    await expect(approvals.notice).toContainText("Denied; the run is queued to go on.");

    // Edit: arguments that do not fit the tool's schema are refused at the form, naming the field; then fixed and approved.
    const edit = approvals.card(editRun);
    await edit.editToggle.click();
    const original = JSON.parse(await edit.arguments.inputValue()) as Record<string, unknown>;
    await edit.arguments.fill(JSON.stringify({ ...original, value: "ten" }));
    await edit.approveEdited.click();
    await expect(edit.error).toContainText("do not fit convertUnits's input schema: /value must be number");
    await expect(edit.arguments).toHaveAttribute("aria-invalid", "true");
    await edit.arguments.fill(JSON.stringify({ ...original, value: 10 }));
    await edit.approveEdited.click();
    await expect(approvals.notice).toContainText("Approved with the edited arguments; the run is queued to go on.");

    // Each run goes on on a worker; the decision is a trace row saying who, when and what changed.
    await expectCompleted(page, approveRun, "42.1648128");
    const denied = await expectCompleted(page, denyRun, "A person (owner@e2e.test) denied this call: Use metres, not kilometres");
    await denied.showCall("approval").click();
    await expect(denied.callArguments("approval")).toContainText('"by": "owner@e2e.test"');
    await expect(denied.callArguments("approval")).toContainText('"reason": "Use metres, not kilometres"');
    const edited = await expectCompleted(page, editRun, "16.09344");
    await edited.showCall("approval").click();
    await expect(edited.callArguments("approval")).toContainText('"decision": "approved with edited arguments"');
    await expect(edited.callArguments("approval")).toContainText('"argumentsAfter"');
  });

  test("from the run page: approve, deny with a reason, edit the arguments and approve", async ({ page }) => {
    await startWaitingRun(page);
    const card = runPageCard(page);
    await expect(card.root.getByRole("heading", { level: 3 })).toContainText("convertUnits called by agent");
    expect(await seriousViolations(page)).toEqual([]);
    await card.approve.click();
    await expectCompletedHere(page, "42.1648128");

    await startWaitingRun(page);
    await runPageCard(page).reason.fill("Not today");
    await runPageCard(page).deny.click();
    await expectCompletedHere(page, "A person (owner@e2e.test) denied this call: Not today");

    await startWaitingRun(page);
    const edit = runPageCard(page);
    await edit.editToggle.click();
    const original = JSON.parse(await edit.arguments.inputValue()) as Record<string, unknown>;
    await edit.arguments.fill("{ not json");
    await edit.approveEdited.click();
    await expect(edit.error).toContainText("The edited arguments are not JSON");
    await edit.arguments.fill(JSON.stringify({ ...original, value: 10 }));
    await edit.approveEdited.click();
    await expectCompletedHere(page, "16.09344");
  });

  test("a call already decided, or whose run was cancelled, cannot be decided: a clear message, nothing changes", async ({ page, context }) => {
    const decidedRun = await startWaitingRun(page);
    const cancelledRun = await startWaitingRun(page);
    const approvals = new ApprovalsPage(page);
    await approvals.goto();
    await expect(approvals.card(decidedRun).approve).toBeVisible();
    await expect(approvals.card(cancelledRun).approve).toBeVisible();

    // Meanwhile, in another tab: one call is approved on its run page, the other run is cancelled.
    const other = await context.newPage();
    const otherRun = new RunPage(other);
    await otherRun.goto(decidedRun);
    await runPageCard(other).approve.click();
    await expect(otherRun.status).toContainText("Completed in", { timeout: 30_000 });
    await otherRun.goto(cancelledRun);
    await otherRun.cancelButton.click();
    // A waiting run is cancelled at once; the page (which polls only while a run runs) shows it when read again.
    await expect(async () => {
      await otherRun.goto(cancelledRun);
      await expect(otherRun.status).toContainText("cancelled", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await other.close();

    // The stale page's buttons answer what happened.
    await approvals.card(decidedRun).approve.click();
    await expect(approvals.card(decidedRun).error).toContainText(/This call was already approved by owner@e2e.test at .*; the run is completed\. Nothing was changed\./);
    await approvals.card(cancelledRun).reason.fill("too late");
    await approvals.card(cancelledRun).deny.click();
    await expect(approvals.card(cancelledRun).error).toHaveText("This call's run is cancelled, so there is nothing to decide. Nothing was changed.");

    const cancelled = new RunPage(page);
    await cancelled.goto(cancelledRun);
    await expect(cancelled.status).toContainText("cancelled");
  });

  test("the agent's inspector sets the policy of each connected service; the edge shows it as a badge and the saved workflow keeps it", async ({ page }) => {
    await seedAskingWorkflow("approvals-canvas");
    const canvas = new CanvasPage(page);
    await canvas.goto("approvals-canvas");
    await canvas.select("agent");
    const policies = canvas.inspector.getByRole("region", { name: "Approval policies of agent" });
    const converter = policies.getByRole("combobox", { name: "Tools from converter" });
    await expect(converter).toHaveValue("");
    await converter.selectOption({ label: "Deny every call" });
    const edge = canvas.edge("Service edge from converter.mcpService to agent.mcpService, approval policy deny");
    await expect(edge).toBeVisible();
    await expect(edge).toContainText("approval: deny");
    await canvas.expectSaved();
    await page.reload();
    await expect(canvas.edge("Service edge from converter.mcpService to agent.mcpService, approval policy deny")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
