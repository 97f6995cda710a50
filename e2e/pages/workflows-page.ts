import type { Locator, Page } from "@playwright/test";

/** `/`: the list of workflows. */
export class WorkflowsPage {
  readonly heading: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Workflows" });
    this.list = page.getByRole("list", { name: "Workflows" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
  }

  /** The list item of the workflow with that name. */
  workflow(name: string): Locator {
    return this.list.getByRole("listitem").filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  workflowLink(name: string): Locator {
    return this.list.getByRole("link", { name, exact: true });
  }
}
