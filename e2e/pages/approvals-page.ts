import type { Locator, Page } from "@playwright/test";

/** One waiting call's card and its decision form, on /approvals or a run page. */
export class ApprovalCard {
  readonly approve: Locator;
  readonly reason: Locator;
  readonly deny: Locator;
  readonly editToggle: Locator;
  readonly arguments: Locator;
  readonly approveEdited: Locator;
  readonly error: Locator;
  readonly argumentTable: Locator;

  constructor(readonly root: Locator) {
    this.approve = root.getByRole("button", { name: "Approve", exact: true });
    this.reason = root.getByRole("textbox", { name: "Reason for denying (the model receives it)" });
    this.deny = root.getByRole("button", { name: "Deny with this reason" });
    this.editToggle = root.getByText("Edit the arguments, then approve");
    this.arguments = root.getByRole("textbox", { name: /^Arguments of .* \(JSON, checked against its input schema\)$/ });
    this.approveEdited = root.getByRole("button", { name: "Approve with these arguments" });
    this.error = root.getByRole("alert");
    this.argumentTable = root.getByRole("table", { name: /^Arguments of / });
  }

  /** The row of one argument, by its path (`to`, `body.lines.0`). */
  argument(path: string): Locator {
    return this.argumentTable.getByRole("row").filter({ has: this.root.page().getByRole("rowheader", { name: path, exact: true }) });
  }
}

/** `/approvals`: every call waiting for approval, across runs. */
export class ApprovalsPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    const section = page.getByRole("region", { name: /^Tool calls waiting for approval/ });
    this.list = section.getByRole("list", { name: "Calls waiting for approval" });
    this.notice = section.getByRole("status");
  }

  async goto(): Promise<void> {
    await this.page.goto("/approvals");
  }

  /** The card of the call a run waits on, by the run's id. */
  card(runId: string): ApprovalCard {
    return new ApprovalCard(this.page.getByRole("article").filter({ has: this.page.locator(`a[href="/runs/${runId}"]`) }));
  }
}
