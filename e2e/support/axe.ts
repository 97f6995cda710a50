import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** One axe-core violation as a test compares it: the rule, its impact, and the first elements it names. */
export interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's violations of any impact on the page (WCAG 2.2 AA and best practice). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? "unknown",
    help: violation.help,
    targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
  }));
}
