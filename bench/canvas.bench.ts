/**
 * The canvas in headless Chromium: time to first render of a generated
 * 500-node, 700-edge workflow (every node in the DOM and measured) and
 * frames per second while panning it, each against a baseline measured the
 * same way in the same process: the canvas of an empty workflow.
 * Targets: under 1.5 s to render, at least 55 fps while panning.
 *
 *   npx tsx bench/canvas.bench.ts [nodes] [edges] [--strict]   (--strict: exit 1 when a target is missed)
 *
 * Needs a production build (`npm run build`; built here when missing). It
 * serves the app itself (`next start` on a free port, its own database under
 * data/) and stops it when done.
 */
import { chromium, type Page } from "playwright-core";
import { chromiumPath } from "../e2e/support/chromium-path";
import playwrightConfig from "../playwright.config";
import { createPrismaClient } from "../lib/db/create-client";
import { generateWorkflow } from "./canvas/generate-workflow";
import { ensureBuild, resetDatabase, startServer } from "./fixtures/app-server";
import { benchSession, sessionCookieName } from "./fixtures/bench-session";

const [nodeArgument, edgeArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const nodeCount = Number(nodeArgument ?? 500);
const edgeCount = Number(edgeArgument ?? 700);
const rounds = 3;
const panMs = 2500;
const databaseUrl = "file:./data/bench-canvas.db";

/** A fresh database with the two workflows the bench opens; returns the cookie of an owner's session (the canvas asks for sign-in). */
async function prepareDatabase(): Promise<string> {
  resetDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl);
  try {
    for (const [id, workflow] of [["bench-empty", { version: 1, name: "Bench: empty", nodes: [], edges: [] }], ["bench-large", generateWorkflow(nodeCount, edgeCount)]] as const) {
      await prisma.workflow.create({ data: { id, name: workflow.name, document: JSON.stringify(workflow) } });
    }
    return await benchSession(prisma);
  } finally {
    await prisma.$disconnect();
  }
}

/** Milliseconds from navigation start until every node is in the DOM and measured (the empty canvas: until its pane is there). */
async function timeToRender(page: Page, url: string, nodes: number): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  const handle = await page.waitForFunction(
    (expected) => {
      const pane = document.querySelector(".react-flow__pane");
      const all = document.querySelectorAll<HTMLElement>(".react-flow__node");
      if (!pane || all.length < expected) return false;
      for (const node of all) if (node.style.visibility === "hidden") return false;
      return performance.now();
    },
    nodes,
    { polling: "raf", timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** Frames per second while the mouse drags the pane back and forth for panMs, counted with requestAnimationFrame. */
async function panFps(page: Page): Promise<{ fps: number; worstFrameMs: number }> {
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no pane on screen");
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  await page.evaluate(`(() => {
    const state = { frames: 0, start: 0, last: 0, worst: 0, running: true };
    window.benchFrames = state;
    const tick = (now) => {
      if (!state.running) return;
      if (state.start === 0) state.start = now;
      else state.worst = Math.max(state.worst, now - state.last);
      state.last = now;
      state.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  // Press on empty pane, not on a node (that would drag the node): the free point nearest the middle.
  const centre = await page.evaluate(
    ({ x, y, width, height }) => {
      for (let radius = 0; radius < Math.min(width, height) / 2; radius += 8) {
        for (let angle = 0; angle < Math.PI * 2; angle += Math.PI / 12) {
          const point = { x: x + width / 2 + Math.cos(angle) * radius, y: y + height / 2 + Math.sin(angle) * radius };
          if (document.elementFromPoint(point.x, point.y)?.classList.contains("react-flow__pane")) return point;
          if (radius === 0) break;
        }
      }
      throw new Error("no free point on the pane to drag from");
    },
    pane,
  );
  const transform = () => page.locator(".react-flow__viewport").evaluate((element) => (element as HTMLElement).style.transform);
  const before = await transform();
  await page.mouse.move(centre.x, centre.y);
  await page.mouse.down();
  const started = Date.now();
  for (let step = 0; Date.now() - started < panMs; step++) {
    const angle = step / 12;
    await page.mouse.move(centre.x + Math.sin(angle) * 250, centre.y + Math.cos(angle) * 150);
  }
  const during = await transform();
  await page.mouse.up();
  if (during === before) throw new Error("the scripted pan did not move the canvas; the figures would mean nothing");
  return page.evaluate(() => {
    const state = (window as unknown as { benchFrames: { frames: number; start: number; last: number; worst: number; running: boolean } }).benchFrames;
    state.running = false;
    return { fps: ((state.frames - 1) * 1000) / (state.last - state.start), worstFrameMs: state.worst };
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(page: Page, base: string, id: string, nodes: number): Promise<{ renderMs: number; fps: number; worstFrameMs: number }> {
  await timeToRender(page, `${base}/workflows/${id}`, nodes); // warm-up: server caches, code in the browser's cache
  const renders: number[] = [];
  for (let round = 0; round < rounds; round++) renders.push(await timeToRender(page, `${base}/workflows/${id}`, nodes));
  const pans = [];
  for (let round = 0; round < rounds; round++) pans.push(await panFps(page));
  return { renderMs: median(renders), fps: median(pans.map((pan) => pan.fps)), worstFrameMs: median(pans.map((pan) => pan.worstFrameMs)) };
}

async function main(): Promise<void> {
  ensureBuild();
  const session = await prepareDatabase();
  const server = await startServer(databaseUrl);
  const launch = playwrightConfig.use?.launchOptions ?? {};
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: launch.args ?? [] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const base = server.base;
    await page.context().addCookies([{ name: sessionCookieName, value: session, url: base }]);
    const empty = await measure(page, base, "bench-empty", 0);
    const large = await measure(page, base, "bench-large", nodeCount);
    const line = (label: string, value: string, ratio: string) => console.log(`${label.padEnd(46)} ${value.padStart(10)}   ${ratio}`);
    console.log(`canvas in headless Chromium, median of ${rounds} (baseline: the canvas of an empty workflow)`);
    line("time to first render, empty canvas", `${empty.renderMs.toFixed(0)} ms`, "baseline");
    line(`time to first render, ${nodeCount} nodes / ${edgeCount} edges`, `${large.renderMs.toFixed(0)} ms`, `${(large.renderMs / empty.renderMs).toFixed(2)}× baseline`);
    line("fps while panning, empty canvas", `${empty.fps.toFixed(1)} fps`, `worst frame ${empty.worstFrameMs.toFixed(0)} ms`);
    line(`fps while panning, ${nodeCount} nodes`, `${large.fps.toFixed(1)} fps`, `${(large.fps / empty.fps).toFixed(2)}× baseline, worst frame ${large.worstFrameMs.toFixed(0)} ms`);
    const renderOk = large.renderMs < 1500;
    const fpsOk = large.fps >= 55;
    console.log(`targets: render under 1500 ms ${renderOk ? "met" : "MISSED"}; panning at least 55 fps ${fpsOk ? "met" : "MISSED"}`);
    if (process.argv.includes("--strict") && !(renderOk && fpsOk)) process.exitCode = 1;
  } finally {
    await browser.close();
    server.stop();
  }
}

await main();
