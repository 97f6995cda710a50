/**
 * The run page of a trace with model turns: 10,000 rows (5,000 turns, each
 * with the call it asked for) beside a 10-row one, on the production build
 * (each figure the median of 3):
 * - server render: the whole answer of /runs/<id> (the HTML with the page's
 *   first data in it: the overview, every turn's place, the first turns);
 * - in headless Chromium (playwright-core), from navigation until the first
 *   model turn's row is visible.
 * The figure is the ratio to the 10-row trace; the absolute time is printed
 * too (target: the 10,000-row trace opens in Chromium in under 2 s).
 *
 *   npx tsx bench/trace-turns.bench.ts [rows] [--strict]
 */
import { chromium, type Page } from "playwright-core";
import { chromiumPath } from "../e2e/support/chromium-path";
import playwrightConfig from "../playwright.config";
import { createPrismaClient } from "../lib/db/create-client";
import { ensureBuild, resetDatabase, startServer } from "./fixtures/app-server";
import { benchSession, sessionCookieName } from "./fixtures/bench-session";
import { median, rowVisible, wholeAnswer } from "./fixtures/page-timing";
import { seedTurnTrace } from "./trace/seed-turns";

const [rowsArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const largeRows = Number(rowsArgument ?? 10_000);
const rounds = 3;
const databaseUrl = "file:./data/bench-turns.db";

/** Milliseconds from navigation until the first model turn's row is visible. */
const firstTurnVisible = (page: Page, url: string) => rowVisible(page, url, 'button[aria-label^="Show the answer of model turn "]');
let session = "";
const serverRender = (url: string) => wholeAnswer(url, `${sessionCookieName}=${session}`);

async function main(): Promise<void> {
  ensureBuild();
  resetDatabase(databaseUrl);
  const db = createPrismaClient(databaseUrl);
  let small: string;
  let large: string;
  try {
    session = await benchSession(db);
    small = await seedTurnTrace(db, 10);
    large = await seedTurnTrace(db, largeRows);
  } finally {
    await db.$disconnect();
  }
  const server = await startServer(databaseUrl);
  const launch = playwrightConfig.use?.launchOptions ?? {};
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: launch.args ?? [] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.context().addCookies([{ name: sessionCookieName, value: session, url: server.base }]);
    const pageUrl = (id: string) => `${server.base}/runs/${id}`;
    for (const id of [small, large]) {
      await serverRender(pageUrl(id));
      await firstTurnVisible(page, pageUrl(id));
    }
    const renders = new Map<string, Array<{ bytes: number; ms: number }>>();
    const opens = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const id of [small, large]) {
        renders.set(id, [...(renders.get(id) ?? []), await serverRender(pageUrl(id))]);
        opens.set(id, [...(opens.get(id) ?? []), await firstTurnVisible(page, pageUrl(id))]);
      }
    }
    const renderMs = (id: string) => median(renders.get(id)!.map((render) => render.ms));
    const bytes = (id: string) => median(renders.get(id)!.map((render) => render.bytes));
    const openMs = (id: string) => median(opens.get(id)!);
    const line = (label: string, value: string, note: string) => console.log(`${label.padEnd(52)} ${value.padStart(10)}   ${note}`);
    console.log(`run page with model turns, production build, median of ${rounds} (baseline: a 10-row trace)`);
    line("server render of /runs/<id>, 10 rows", `${renderMs(small).toFixed(0)} ms`, `${(bytes(small) / 1024).toFixed(1)} KB`);
    line(`server render of /runs/<id>, ${largeRows.toLocaleString("en-US")} rows`, `${renderMs(large).toFixed(0)} ms`, `${(bytes(large) / 1024).toFixed(1)} KB, ${(renderMs(large) / renderMs(small)).toFixed(2)}× baseline`);
    line("first turn row visible in Chromium, 10 rows", `${openMs(small).toFixed(0)} ms`, "baseline");
    line(`first turn row visible in Chromium, ${largeRows.toLocaleString("en-US")} rows`, `${openMs(large).toFixed(0)} ms`, `${(openMs(large) / openMs(small)).toFixed(2)}× baseline`);
    const met = openMs(large) < 2000;
    console.log(`target: the ${largeRows.toLocaleString("en-US")}-row trace opens in Chromium in under 2 s: ${met ? "met" : "MISSED"} (ratio ${(openMs(large) / openMs(small)).toFixed(2)}×)`);
    if (process.argv.includes("--strict") && !met) process.exitCode = 1;
  } finally {
    await browser.close();
    server.stop();
  }
}

await main();
