import type { Locator, Page } from "@playwright/test";

/** `/nodes`: the node catalogue with its lint results. */
export class NodesPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly summary: Locator;
  readonly nodeList: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Node catalogue" });
    this.search = page.getByRole("searchbox", { name: "Search nodes" });
    this.summary = page.getByRole("list", { name: "Lint summary" });
    this.nodeList = page.getByRole("list", { name: "Node types" });
    this.status = page.getByRole("search").getByRole("status");
  }

  async goto(): Promise<void> {
    await this.page.goto("/nodes");
  }

  /** The heading of a node's card, by the node's title. */
  nodeHeading(title: string): Locator {
    return this.nodeList.getByRole("heading", { level: 2, name: title, exact: true });
  }

  /** A node's card, by the node's title. */
  node(title: string): Locator {
    return this.nodeList.getByRole("article", { name: title, exact: true });
  }

  /** The parameter table of one method of a node. */
  parameters(nodeTitle: string, method: string): Locator {
    return this.node(nodeTitle).getByRole("table", { name: `Parameters of ${method}` });
  }

  /** The row of one parameter in such a table. */
  parameter(nodeTitle: string, method: string, parameter: string): Locator {
    return this.parameters(nodeTitle, method).getByRole("row").filter({
      has: this.page.getByRole("rowheader", { name: parameter, exact: true }),
    });
  }

  async filter(text: string): Promise<void> {
    await this.search.fill(text);
  }
}
