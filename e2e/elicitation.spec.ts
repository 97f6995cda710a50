import { expect, test } from "@playwright/test";
import { QuestionsPage } from "./pages/questions-page";
import { RunPage } from "./pages/run-page";
import { RunsPage } from "./pages/runs-page";
import { ServerFormPage } from "./pages/servers-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { agentServerWorkflow } from "./fixtures/agent-server-workflow";

const tool = "trigger-elicitation-request";

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

test.describe("questions from tools (MCP elicitation)", () => {
  test("server-everything's elicitation tool is answered from the app with the generated form, then declined in a second run; each answer reaches the tool", async ({ page }) => {
    test.setTimeout(240_000);
    const suffix = uniqueSuffix();
    const serverId = `everything-${suffix}`;
    const form = new ServerFormPage(page);
    await form.gotoNew();
    await form.fill({ Name: `Everything ${suffix}`, Id: serverId, "Catalogue entry": "everything" });
    await form.submit();
    await expect(page).toHaveURL(new RegExp(`/servers\\?saved=${serverId}$`));

    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const name = `Elicitation ${suffix}`;
    await workflows.importJson("elicitation.json", JSON.stringify(agentServerWorkflow(name, serverId, [tool])));
    const open = workflows.importStatus.getByRole("link", { name: `Open ${name}` });
    const workflowId = decodeURIComponent((await open.getAttribute("href"))!.split("/").pop()!);
    // A registered server is used by a workflow only once someone grants it (issue 10): grant it on the canvas.
    await open.click();
    const grant = page.getByRole("button", { name: /^Grant .* to this workflow$/ });
    await grant.click();
    await expect(grant).toHaveCount(0, { timeout: 30_000 });

    // First run: the tool asks, the run waits for input, the person fills the generated form.
    const runs = new RunsPage(page);
    await runs.goto(workflowId);
    const firstRun = await runs.run({ question: "trigger an elicitation request" });
    const run = new RunPage(page);
    await expect(run.status).toContainText("waiting for input", { timeout: 60_000 });
    await page.getByRole("link", { name: "Answer the question" }).click();

    const questions = new QuestionsPage(page);
    await expect(questions.heading).toBeVisible();
    const answer = questions.form(tool);
    await expect(questions.card(tool)).toContainText("Please provide inputs for the following fields:");
    // Generated from the requested schema: titles as labels, defaults filled in, the right control per kind.
    await expect(answer.getByRole("textbox", { name: "String (required)", exact: true })).toHaveValue("");
    await expect(answer.getByRole("textbox", { name: "String with default", exact: true })).toHaveValue("It was a dark and stormy night.");
    await expect(answer.getByRole("spinbutton", { name: "Integer", exact: true })).toHaveValue("42");
    await expect(answer.getByRole("combobox", { name: "Titled Single Select Enum", exact: true })).toHaveValue("hero-1");
    await expect(answer.getByRole("group", { name: "Untitled Multiple Select Enum", exact: true }).getByRole("checkbox", { name: "Guitar", exact: true })).toBeChecked();
    // The form checks before it sends: an integer out of range is refused.
    await answer.getByRole("textbox", { name: "String (required)", exact: true }).fill("Ada Lovelace");
    await answer.getByRole("checkbox", { name: "Boolean", exact: true }).check();
    await answer.getByRole("textbox", { name: "String with email format", exact: true }).fill("ada@example.com");
    await answer.getByRole("spinbutton", { name: "Integer", exact: true }).fill("7");
    await answer.getByRole("combobox", { name: "Legacy Titled Single Select Enum", exact: true }).selectOption({ label: "Dogs" });
    await answer.getByRole("button", { name: "Submit answer" }).click();
    await expect(questions.card(tool).getByRole("status")).toHaveText("Answered. The run goes on.");

    await run.goto(firstRun);
    await expect(run.status).toContainText("completed", { timeout: 60_000 });
    await page.getByRole("button", { name: `Show call ${tool}` }).click();
    const result = page.getByRole("region", { name: `Arguments and result of call ${tool}` });
    await expect(result).toContainText("User provided the requested information!");
    await expect(result).toContainText("Name: Ada Lovelace");
    await expect(result).toContainText("Email: ada@example.com");
    await expect(result).toContainText("Favorite Integer: 7");

    // Second run: the person declines; the tool hears it.
    await runs.goto(workflowId);
    const secondRun = await runs.run({ question: "trigger an elicitation request" });
    await expect(run.status).toContainText("waiting for input", { timeout: 60_000 });
    await questions.goto(secondRun);
    await questions.form(tool).getByRole("button", { name: "Decline" }).click();
    await expect(questions.card(tool).getByRole("status")).toHaveText("Declined. The run goes on.");
    await run.goto(secondRun);
    await expect(run.status).toContainText("completed", { timeout: 60_000 });
    await page.getByRole("button", { name: `Show call ${tool}` }).click();
    await expect(page.getByRole("region", { name: `Arguments and result of call ${tool}` })).toContainText("User declined to provide the requested information.");
    await questions.goto(secondRun);
    await expect(page.getByText("No tool is waiting for an answer")).toBeVisible();
  });
});
