import type { Locator, Page } from "@playwright/test";

/** `/workflows/<id>/tests`: datasets, scorers, evaluations by version and the rows that differ. */
export class TestsPage {
  readonly heading: Locator;
  readonly upload: Locator;
  readonly evaluate: Locator;
  readonly scorers: Locator;
  readonly table: Locator;
  readonly rowDiffs: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.upload = page.getByRole("form", { name: "Upload a dataset" });
    this.evaluate = page.getByRole("form", { name: "Run an evaluation" });
    this.scorers = page.getByRole("form", { name: "Scorers" });
    this.table = page.getByRole("table", { name: "Evaluations by version" });
    this.rowDiffs = page.getByRole("list", { name: /^Rows that differ between/ });
  }

  async goto(workflowId: string): Promise<void> {
    await this.page.goto(`/workflows/${encodeURIComponent(workflowId)}/tests`);
  }

  async uploadDataset(name: string, text: string): Promise<void> {
    await this.upload.getByLabel("Dataset file (JSONL or CSV)").setInputFiles({ name, mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
    await this.upload.getByRole("button", { name: "Upload dataset" }).click();
  }

  /** Adds a scorer of this kind (its option's text) with these fields (by label). */
  async addScorer(kind: string, fields: Record<string, string> = {}): Promise<void> {
    await this.scorers.getByRole("button", { name: "Add scorer" }).click();
    const index = await this.scorers.getByRole("listitem").count();
    await this.scorers.getByRole("combobox", { name: `Scorer ${index}` }).selectOption({ label: kind });
    for (const [label, value] of Object.entries(fields)) await this.scorers.getByRole("textbox", { name: `${label} of scorer ${index}` }).fill(value);
  }

  async runEvaluation(version: string): Promise<void> {
    await this.evaluate.getByRole("combobox", { name: "Version" }).selectOption({ label: version });
    await this.evaluate.getByRole("button", { name: "Run evaluation" }).click();
  }

  /** The table's line of a version ("version 1", "current document"). */
  line(version: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: version, exact: true }) });
  }
}
