/**
 * The trace page of a 10,000-call run beside a 10-call run, served by the
 * production build in the same process (each figure the median of 3):
 * - the first answer of /runs/<id>: its size (target under 200 KB) and the
 *   time to receive it (target under 5x the 10-call run's);
 * - in headless Chromium, the time until the first tool call's row is
 *   visible (target under 3x the 10-call run's);
 * - the server's memory (resident, its whole process tree) while serving
 *   the large trace, against the same server idle (target under 1.5x).
 * Every call's result is taint-tracked and two outputs came from all 10,000
 * calls: the shape that used to make the page ship everything.
 *
 *   npx tsx bench/trace.bench.ts [calls] [--strict]   (--strict: exit 1 when a target is missed)
 */
import { chromium, type Page } from "playwright-core";
import { chromiumPath } from "../e2e/support/chromium-path";
import playwrightConfig from "../playwright.config";
import { createPrismaClient } from "../lib/db/create-client";
import { ensureBuild, resetDatabase, startServer, treeRss } from "./fixtures/app-server";
import { benchSession, sessionCookieName } from "./fixtures/bench-session";
import { median, rowVisible, wholeAnswer } from "./fixtures/page-timing";
import { seedTrace } from "./trace/seed-trace";

const [countArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const largeCount = Number(countArgument ?? 10_000);
const rounds = 3;
const databaseUrl = "file:./data/bench-trace.db";

/** Milliseconds from navigation until the first tool call's row is visible. */
const firstRowVisible = (page: Page, url: string) => rowVisible(page, url, 'button[aria-label^="Show call "]');
let session = "";
const firstAnswer = (url: string) => wholeAnswer(url, `${sessionCookieName}=${session}`);

async function main(): Promise<void> {
  ensureBuild();
  resetDatabase(databaseUrl);
  const db = createPrismaClient(databaseUrl);
  let small: string;
  let large: string;
  try {
    session = await benchSession(db);
    small = await seedTrace(db, 10);
    large = await seedTrace(db, largeCount);
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
    // Warm-up: compiled routes, database caches, the browser's cache of the code.
    for (const id of [small, large]) {
      await firstAnswer(pageUrl(id));
      await firstRowVisible(page, pageUrl(id));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleRss = treeRss(server.pid);

    const answers = new Map<string, Array<{ bytes: number; ms: number }>>();
    const rows = new Map<string, number[]>();
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(server.pid))), 25);
    for (let round = 0; round < rounds; round++) {
      for (const id of [small, large]) {
        answers.set(id, [...(answers.get(id) ?? []), await firstAnswer(pageUrl(id))]);
        rows.set(id, [...(rows.get(id) ?? []), await firstRowVisible(page, pageUrl(id))]);
      }
    }
    const api = await firstAnswer(`${server.base}/api/runs/${large}`);
    clearInterval(sampler);

    const ms = (id: string) => median(answers.get(id)!.map((answer) => answer.ms));
    const bytes = (id: string) => median(answers.get(id)!.map((answer) => answer.bytes));
    const line = (label: string, value: string, note: string) => console.log(`${label.padEnd(48)} ${value.padStart(10)}   ${note}`);
    console.log(`trace page, production build, median of ${rounds} (baseline: a 10-call run)`);
    line("first answer of /runs/<id>, 10 calls", `${(bytes(small) / 1024).toFixed(1)} KB`, `${ms(small).toFixed(0)} ms`);
    line(`first answer of /runs/<id>, ${largeCount.toLocaleString("en-US")} calls`, `${(bytes(large) / 1024).toFixed(1)} KB`, `${ms(large).toFixed(0)} ms, ${(ms(large) / ms(small)).toFixed(2)}× baseline`);
    line(`GET /api/runs/<id>, ${largeCount.toLocaleString("en-US")} calls`, `${(api.bytes / 1024).toFixed(1)} KB`, `${api.ms.toFixed(0)} ms`);
    line("first row visible in Chromium, 10 calls", `${median(rows.get(small)!).toFixed(0)} ms`, "baseline");
    line(`first row visible in Chromium, ${largeCount.toLocaleString("en-US")} calls`, `${median(rows.get(large)!).toFixed(0)} ms`, `${(median(rows.get(large)!) / median(rows.get(small)!)).toFixed(2)}× baseline`);
    line("server memory idle / peak while serving", `${(idleRss / 2 ** 20).toFixed(0)} MB`, `peak ${(peakRss / 2 ** 20).toFixed(0)} MB, ${(peakRss / idleRss).toFixed(2)}× idle`);
    const targets = [
      ["first answer under 200 KB", bytes(large) < 200 * 1024],
      ["first answer under 5× the 10-call run's time", ms(large) < 5 * ms(small)],
      ["first row under 3× the 10-call run's", median(rows.get(large)!) < 3 * median(rows.get(small)!)],
      ["server memory under 1.5× idle", peakRss < 1.5 * idleRss],
    ] as const;
    console.log(`targets: ${targets.map(([label, ok]) => `${label} ${ok ? "met" : "MISSED"}`).join("; ")}`);
    if (process.argv.includes("--strict") && targets.some(([, ok]) => !ok)) process.exitCode = 1;
  } finally {
    await browser.close();
    server.stop();
  }
}

await main();
