import type { Locator, Page } from "@playwright/test";

/** `/questions[?run=<id>]`: the questions tools asked (MCP elicitation), each with its generated answer form. */
export class QuestionsPage {
  readonly heading: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Questions" });
    this.list = page.getByRole("list", { name: "Questions waiting for an answer" });
  }

  async goto(runId?: string): Promise<void> {
    await this.page.goto(runId ? `/questions?run=${encodeURIComponent(runId)}` : "/questions");
  }

  /** The answer form of a tool's question. */
  form(tool: string): Locator {
    return this.page.getByRole("form", { name: `Answer the question of ${tool}` });
  }

  /** The question's card, where "Answered. The run goes on." appears once the answer is recorded. */
  card(tool: string): Locator {
    return this.page.getByRole("article").filter({ has: this.page.getByRole("heading", { name: new RegExp(`/${tool} asks$`) }) });
  }
}
