import path from "node:path";
import type { Page } from "@playwright/test";

/**
 * Takes a screenshot for the docs (docs/screenshots/NAME.png) only when
 * SWITCHBOARD_SCREENSHOTS=1 asks for it, so `npm test` leaves the work tree
 * as it was; the screenshot is taken either way, so the page must be able to
 * render it. Refresh the docs with `SWITCHBOARD_SCREENSHOTS=1 npm run test:e2e`.
 */
export async function docsScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const write = process.env.SWITCHBOARD_SCREENSHOTS === "1";
  await page.screenshot({ ...options, ...(write ? { path: path.join("docs", "screenshots", `${name}.png`) } : {}) });
}
