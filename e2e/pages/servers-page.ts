import type { Locator, Page } from "@playwright/test";

/** `/servers`: the registered MCP servers. */
export class ServersPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly registerLink: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "MCP servers" });
    this.list = page.getByRole("list", { name: "MCP servers" });
    this.registerLink = page.getByRole("link", { name: "Register a server" });
  }

  async goto(): Promise<void> {
    await this.page.goto("/servers");
  }

  /** A server's card, by its name. */
  server(name: string): Locator {
    return this.list.getByRole("article", { name, exact: true });
  }

  /** What "Test connection" said for a server. */
  connectionResult(name: string): Locator {
    return this.page.getByRole("status", { name: `Connection result of ${name}` });
  }

  async testConnection(name: string): Promise<void> {
    await this.page.getByRole("button", { name: `Test connection to ${name}` }).click();
  }

  async delete(name: string): Promise<void> {
    await this.page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
    await this.page.getByRole("group", { name: `Confirm deleting ${name}` }).getByRole("button", { name: "Yes, delete" }).click();
  }
}

/** `/servers/new` and `/servers/<id>/edit`: the server form. */
export class ServerFormPage {
  readonly form: Locator;
  readonly summary: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole("form");
    this.summary = this.form.getByRole("alert");
  }

  async gotoNew(): Promise<void> {
    await this.page.goto("/servers/new");
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  async fill(values: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(values)) {
      if (label === "Transport" || label === "Catalogue entry") await this.field(label).selectOption(value);
      else await this.field(label).fill(value);
    }
  }

  async addSecret(name: string, value: string): Promise<void> {
    await this.form.getByRole("button", { name: "Add a secret" }).click();
    await this.form.getByLabel("Secret name").last().fill(name);
    await this.form.getByLabel("Secret value").last().fill(value);
  }

  async submit(): Promise<void> {
    await this.form.getByRole("button", { name: /^(Register server|Save changes)$/ }).click();
  }
}

/** `/servers/<id>`: one server and its tools. */
export class ServerToolsPage {
  constructor(readonly page: Page) {}

  tools(serverName: string): Locator {
    return this.page.getByRole("list", { name: `Tools of ${serverName}` });
  }

  tool(serverName: string, toolName: string): Locator {
    return this.tools(serverName).getByRole("article", { name: new RegExp(`^${toolName}(\\s|$)`) });
  }
}
