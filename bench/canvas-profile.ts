/**
 * Where the canvas's first render of a large workflow spends its time: the
 * server's answer (time, size, how often the document is in it) and a
 * Chromium CPU profile from navigation until every node is in the DOM and
 * measured, summed by function (self time) and by script. A diagnostic next
 * to bench/canvas.bench.ts, not a bench: it prints no ratio.
 *
 *   npx tsx bench/canvas-profile.ts [nodes] [edges] [--top=40]
 */
import { chromium } from "playwright-core";
import { chromiumPath } from "../e2e/support/chromium-path";
import playwrightConfig from "../playwright.config";
import { createPrismaClient } from "../lib/db/create-client";
import { generateWorkflow } from "./canvas/generate-workflow";
import { ensureBuild, resetDatabase, startServer } from "./fixtures/app-server";
import { benchSession, sessionCookieName } from "./fixtures/bench-session";

const [nodeArgument, edgeArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const nodeCount = Number(nodeArgument ?? 500);
const edgeCount = Number(edgeArgument ?? 700);
const top = Number(process.argv.find((argument) => argument.startsWith("--top="))?.slice(6) ?? 40);
const databaseUrl = "file:./data/bench-canvas-profile.db";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main(): Promise<void> {
  ensureBuild();
  resetDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl);
  const workflow = generateWorkflow(nodeCount, edgeCount);
  await prisma.workflow.create({ data: { id: "profile-large", name: workflow.name, document: JSON.stringify(workflow) } });
  await prisma.workflow.create({ data: { id: "profile-empty", name: "Profile: empty", document: JSON.stringify({ version: 1, name: "Profile: empty", nodes: [], edges: [] }) } });
  const session = await benchSession(prisma);
  await prisma.$disconnect();
  // Any answer will do: a profiling build may hold only this page (next build --debug-build-paths).
  const server = await startServer(databaseUrl, undefined, { anyAnswer: true });
  const url = `${server.base}/workflows/profile-large`;
  try {
    // The server's answer, three times each (the first warms it).
    for (const [round, target] of [url, url, url, `${server.base}/workflows/profile-empty`, `${server.base}/workflows/profile-empty`, `${server.base}/workflows/profile-empty`].entries()) {
      const started = performance.now();
      const response = await fetch(target, { headers: { cookie: `${sessionCookieName}=${session}` } });
      const html = await response.text();
      const ms = performance.now() - started;
      const count = (needle: string) => html.split(needle).length - 1;
      console.log(
        `server ${round < 3 ? "large" : "empty"}: ${response.status} ${ms.toFixed(0)} ms, ${(html.length / 1024).toFixed(0)} KB; "n${nodeCount - 1}" ×${count(`n${nodeCount - 1}`)}, "api.example.com" ×${count("api.example.com")}, "lint" ×${count("lint")}`,
      );
    }
    const launch = playwrightConfig.use?.launchOptions ?? {};
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: launch.args ?? [] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.context().addCookies([{ name: sessionCookieName, value: session, url: server.base }]);
    const waitForNodes = () =>
      page.waitForFunction(
        (expected) => {
          const all = document.querySelectorAll<HTMLElement>(".react-flow__node");
          if (!document.querySelector(".react-flow__pane") || all.length < expected) return false;
          for (const node of all) if (node.style.visibility === "hidden") return false;
          return performance.now();
        },
        nodeCount,
        { polling: "raf", timeout: 60_000 },
      );
    // Warm-up: code in the browser's cache.
    await page.goto(url, { waitUntil: "commit" });
    await waitForNodes();
    // Long tasks, React commits (through the hook React DevTools uses) and when the first node appears.
    await page.addInitScript(`(() => {
      const log = (window.profileLog = { longTasks: [], commits: [], firstNode: null });
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) log.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]); }).observe({ type: "longtask", buffered: true });
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), inject() { return 1; }, onCommitFiberRoot() { log.commits.push(Math.round(performance.now())); }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {} };
      new MutationObserver((_, observer) => { if (document.querySelector(".react-flow__node")) { log.firstNode = Math.round(performance.now()); observer.disconnect(); } }).observe(document, { childList: true, subtree: true });
    })()`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto(url, { waitUntil: "commit" });
    const rendered = (await (await waitForNodes()).jsonValue()) as number;
    let { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    if (process.argv.includes("--pan")) {
      // Instead: the profile of 2.5 s of dragging the pane (from its bottom-left corner, which has no node).
      const pane = await page.locator(".react-flow__pane").boundingBox();
      if (!pane) throw new Error("no pane");
      const at = await page.evaluate(({ x, y, width, height }) => {
        for (let radius = 0; radius < Math.min(width, height) / 2; radius += 8) {
          for (let angle = 0; angle < Math.PI * 2; angle += Math.PI / 12) {
            const point = { x: x + width / 2 + Math.cos(angle) * radius, y: y + height / 2 + Math.sin(angle) * radius };
            if (document.elementFromPoint(point.x, point.y)?.classList.contains("react-flow__pane")) return point;
          }
        }
        throw new Error("no free point on the pane");
      }, pane);
      const transform = () => page.locator(".react-flow__viewport").evaluate((element) => (element as HTMLElement).style.transform);
      const before = await transform();
      await page.waitForTimeout(500);
      const tracing = process.argv.includes("--trace");
      if (tracing) await browser.startTracing(page, { categories: ["devtools.timeline", "blink", "cc", "disabled-by-default-devtools.timeline"] });
      await cdp.send("Profiler.start");
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      let frames = 0;
      const started = Date.now();
      for (let step = 0; Date.now() - started < 2500; step++) {
        await page.mouse.move(at.x + Math.sin(step / 12) * 250, at.y + Math.cos(step / 12) * 150);
        frames++;
      }
      if ((await transform()) === before) throw new Error("the pan did not move the canvas");
      await page.mouse.up();
      ({ profile } = (await cdp.send("Profiler.stop")) as { profile: Profile });
      console.log(`pan: ${frames} pointer moves in 2.5 s`);
      if (tracing) summarizeTrace(JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] });
    }
    const timings = await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByType("paint").map((entry) => `${entry.name} ${entry.startTime.toFixed(0)}`);
      return {
        responseStart: navigation.responseStart,
        responseEnd: navigation.responseEnd,
        domInteractive: navigation.domInteractive,
        domContentLoaded: navigation.domContentLoadedEventEnd,
        paint,
        log: (window as unknown as { profileLog: unknown }).profileLog,
        elements: document.querySelectorAll("*").length,
        handles: document.querySelectorAll(".react-flow__handle").length,
        edges: document.querySelectorAll(".react-flow__edge").length,
      };
    });
    if (process.argv.includes("--dump")) {
      console.log(await page.evaluate(() => ["n0", "n3", "n4"].map((id) => document.querySelector(`.react-flow__node[data-id="${id}"]`)?.outerHTML).join("\n\n")));
      console.log(await page.evaluate(() => document.querySelector(".react-flow__edge")?.outerHTML));
    }
    console.log(`browser: all ${nodeCount} nodes measured at ${rendered.toFixed(0)} ms;`, JSON.stringify(timings));
    await summarize(profile);
    await browser.close();
  } finally {
    server.stop();
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Total duration of each complete event on the renderer's main thread (CrRendererMain), top 25. */
function summarizeTrace(trace: { traceEvents: TraceEvent[] }): void {
  const main = trace.traceEvents.find((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain");
  const byName = new Map<string, number>();
  for (const event of trace.traceEvents) {
    if (event.ph !== "X" || !main || event.pid !== main.pid || event.tid !== main.tid) continue;
    byName.set(event.name, (byName.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
  }
  console.log("\nrenderer main thread, by trace event (inclusive, ms)");
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(1).padStart(9)} ms  ${name}`);
}

/** The minified code at a profile's location: enough to tell which function it is. */
const scripts = new Map<string, Promise<string[]>>();
async function snippet(url: string, line: number, column: number): Promise<string> {
  if (!url.startsWith("http")) return "";
  if (!scripts.has(url)) scripts.set(url, fetch(url).then(async (response) => (await response.text()).split("\n")));
  const text = (await scripts.get(url))?.[line] ?? "";
  return text.slice(column, column + 90).replace(/\s+/g, " ");
}

async function summarize(profile: Profile): Promise<void> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((sample, index) => self.set(sample, (self.get(sample) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const where = new Map<string, { url: string; line: number; column: number }>();
  const byScript = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    total += ms;
    const script = frame.url.replace(/^.*\/_next\//, "_next/") || "(native)";
    const key = `${frame.functionName || "(anonymous)"} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    where.set(key, { url: frame.url, line: frame.lineNumber, column: frame.columnNumber });
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
  }
  // Inclusive time per function name, to see which component's subtree is expensive.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, ms] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame?.functionName) continue;
      const name = `${frame.functionName} ${frame.url.replace(/^.*\/_next\//, "_next/")}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
      where.set(name, { url: frame.url, line: frame.lineNumber, column: frame.columnNumber });
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
    }
  }
  const print = async (title: string, map: Map<string, number>, count: number) => {
    console.log(`\n${title}`);
    for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      const at = where.get(key);
      console.log(`${ms.toFixed(1).padStart(9)} ms  ${key}${at ? `  | ${await snippet(at.url, at.line, at.column)}` : ""}`);
    }
  };
  console.log(`\nprofiled ${total.toFixed(0)} ms of samples`);
  await print("self time by script", byScript, 15);
  await print("self time by function", byFunction, top);
  await print("inclusive time by function", inclusive, top);
  await print("inclusive time by component (capitalised names)", new Map([...inclusive].filter(([key]) => /^[A-Z]/.test(key))), top);
}

await main();
