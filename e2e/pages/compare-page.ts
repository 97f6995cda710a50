import type { Locator, Page } from "@playwright/test";

/** `/runs/compare?a=&b=`: two runs lined up step by step. */
export class ComparePage {
  readonly heading: Locator;
  readonly picker: Locator;
  readonly runA: Locator;
  readonly runB: Locator;
  readonly compareButton: Locator;
  readonly problem: Locator;
  readonly divergence: Locator;
  readonly totals: Locator;
  readonly steps: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.picker = page.getByRole("form", { name: "Choose two runs" });
    this.runA = this.picker.getByLabel("Run A");
    this.runB = this.picker.getByLabel("Run B");
    this.compareButton = this.picker.getByRole("button", { name: "Compare" });
    this.problem = page.getByRole("alert").filter({ hasText: "cannot be compared" });
    this.divergence = page.getByRole("region", { name: "Summary" }).getByRole("status");
    this.totals = page.getByRole("table", { name: "Totals" });
    this.steps = page.getByRole("table", { name: "Steps of both runs, lined up by node and order" });
  }

  async goto(a: string, b: string): Promise<void> {
    await this.page.goto(`/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  }

  /** The table row of one step, by its key (e.g. "agent#1/call 1"). */
  step(key: string): Locator {
    return this.steps.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: key, exact: true }) });
  }

  /** The differences listed at one step. */
  differences(key: string): Locator {
    return this.step(key).getByRole("list", { name: `Differences at ${key}` });
  }

  /** A figure's row in the totals table ("Tool calls", "Time"…). */
  total(label: string): Locator {
    return this.totals.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name: label, exact: true }) });
  }
}
