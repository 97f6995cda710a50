import type { Locator, Page } from "@playwright/test";

/** `/`: the list of workflows, with create, import, rename, duplicate, export and delete. */
export class WorkflowsPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly newName: Locator;
  readonly create: Locator;
  readonly importFile: Locator;
  readonly importStatus: Locator;
  readonly importProblems: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Workflows" });
    this.list = page.getByRole("list", { name: "Workflows" });
    this.newName = page.getByLabel("New workflow name");
    this.create = page.getByRole("button", { name: "Create workflow" });
    this.importFile = page.getByLabel("Import workflow JSON");
    this.importStatus = page.getByRole("region", { name: "New workflow" }).getByRole("status");
    this.importProblems = page.getByRole("list", { name: "Import problems" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  /** The list item of the workflow with that name. */
  workflow(name: string): Locator {
    return this.list.getByRole("listitem", { name, exact: true });
  }

  workflowLink(name: string): Locator {
    return this.list.getByRole("link", { name, exact: true });
  }

  /** Creates a workflow and waits for its canvas; returns its id. */
  async createWorkflow(name: string): Promise<string> {
    await this.newName.fill(name);
    await this.create.click();
    await this.page.waitForURL(/\/workflows\/[^/]+$/);
    return decodeURIComponent(new URL(this.page.url()).pathname.split("/").pop()!);
  }

  /** From the start page: a new workflow of that name, its canvas open. */
  async openNewWorkflow(name: string): Promise<string> {
    await this.goto();
    return this.createWorkflow(name);
  }

  action(workflowName: string, action: "Rename" | "Duplicate" | "Delete"): Locator {
    return this.list.getByRole("button", { name: `${action} ${workflowName}`, exact: true });
  }

  exportLink(workflowName: string): Locator {
    return this.list.getByRole("link", { name: `Export ${workflowName} as JSON`, exact: true });
  }

  /** Imports a file given as text, as if chosen in the file picker. */
  async importJson(fileName: string, text: string): Promise<void> {
    await this.importFile.setInputFiles({ name: fileName, mimeType: "application/json", buffer: Buffer.from(text) });
  }
}
