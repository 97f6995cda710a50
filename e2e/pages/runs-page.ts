import type { Locator, Page } from "@playwright/test";

/** `/runs?workflow=<id>`: one workflow's runs and the form that starts one. */
export class RunsPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly runButton: Locator;
  readonly formError: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.form = page.getByRole("form", { name: "Run this workflow" });
    this.runButton = this.form.getByRole("button", { name: "Run workflow" });
    this.formError = this.form.getByRole("alert");
    this.table = page.getByRole("table", { name: /^Runs of / });
  }

  async goto(workflowId: string): Promise<void> {
    await this.page.goto(`/runs?workflow=${encodeURIComponent(workflowId)}`);
  }

  /** The control of one of the Start's input fields, by the field's name. */
  input(name: string): Locator {
    return this.form.getByLabel(name, { exact: false });
  }

  /** Fills the fields and runs; resolves once the run's own page is open. Returns the run id. */
  async run(values: Record<string, string>): Promise<string> {
    for (const [name, value] of Object.entries(values)) await this.input(name).fill(value);
    await this.runButton.click();
    await this.page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    return this.page.url().split("/").at(-1)!;
  }

  /** The button on a parent's row that folds its forks away ("Hide the fork of run …") or shows them again. */
  forkToggle(runId: string): Locator {
    return this.table.getByRole("button", { name: new RegExp(`^(Hide|Show) the (\\d+ )?forks? of run ${runId.slice(0, 8)}$`) });
  }

  /** The table's rows in order, each by the id its link opens. */
  async rowOrder(): Promise<string[]> {
    const labels = await this.table.getByRole("link", { name: /^Open run / }).evaluateAll((links) => links.map((link) => link.getAttribute("aria-label") ?? ""));
    return labels.map((label) => label.replace("Open run ", ""));
  }

  /** The table row of a run, by its id. */
  runRow(runId: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: `Open run ${runId.slice(0, 8)}` }) });
  }
}
