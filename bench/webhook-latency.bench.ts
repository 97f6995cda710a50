/**
 * A webhook delivery's way into a run: the time from POST /api/hooks/<id>
 * (signed, GitHub style) to the run's first step (its Start's NodeRun),
 * median and p99 over 200 deliveries, beside a bare fetch of the same
 * route (an id that names no webhook: answered 404 at once) in the same
 * process. The route is served by a plain HTTP server that hands each
 * request to the route handler as Next would; a worker in the same process
 * takes the runs (embedded mode, SQLite), woken by the run service.
 *
 *   npx tsx bench/webhook-latency.bench.ts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { createTemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { TriggerStore } from "../lib/db/triggers";
import { closeProcessRuns, runService, startWorkerRuntime } from "../lib/runs";
import { signDelivery } from "../lib/triggers";

const deliveries = 200;
const database = await createTemporaryDatabase();
process.env.DATABASE_URL = database.url;
const route = await import("../app/api/hooks/[hookId]/route");

const document = {
  version: 1,
  name: "Webhook bench",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { trigger: "webhook", signature: "github" } },
    { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "body", target: "end", targetHandle: "result" }],
};
await database.client.workflow.create({ data: { id: "bench", name: document.name, document: JSON.stringify(document) } });
const issuing = await new TriggerStore(runService().db).issueWebhook("bench");
if ("refused" in issuing) throw new Error(issuing.refused);
const issued = issuing;

/** The route as Next serves it: a Request in, a Response out. */
const server = http.createServer(async (incoming, outgoing) => {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const url = `http://127.0.0.1${incoming.url}`;
  const hookId = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  const request = new Request(url, { method: "POST", headers: incoming.headers as Record<string, string>, body: Buffer.concat(chunks) });
  const response = await route.POST(request, { params: Promise.resolve({ hookId }) });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/hooks`;
const worker = startWorkerRuntime({ databaseUrl: database.url, webhook: null, ticksSchedules: false });

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** A bare fetch of the route: an id that names no webhook. */
async function bare(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/not-a-webhook`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
  await response.arrayBuffer();
  return performance.now() - started;
}

/** A signed delivery, until its run's first step has started (read from the database the worker writes). */
async function delivery(index: number): Promise<number> {
  const body = JSON.stringify({ index });
  const headers = { "content-type": "application/json", ...signDelivery({ preset: "github", secret: issued.secret, body, now: new Date() }) };
  const sentAt = Date.now();
  const started = performance.now();
  const response = await fetch(`${base}/${issued.hookId}`, { method: "POST", body, headers });
  const { runId } = (await response.json()) as { runId: string };
  for (;;) {
    const [first] = await runService().db.query<{ startedAt: unknown }>(`SELECT "startedAt" FROM "NodeRun" WHERE "runId" = ? ORDER BY "startedAt" LIMIT 1`, [runId]);
    if (first) {
      // The step's own start time, so the poll's interval does not count.
      const stepAt = new Date(first.startedAt instanceof Date ? first.startedAt : String(first.startedAt)).getTime();
      return Math.max(stepAt - sentAt, 0) || performance.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

for (let index = 0; index < 10; index++) {
  await bare();
  await delivery(-index - 1);
}
const bareTimes: number[] = [];
const deliveryTimes: number[] = [];
for (let index = 0; index < deliveries; index++) {
  bareTimes.push(await bare());
  deliveryTimes.push(await delivery(index));
}
const [bareMedian, bareP99] = [percentile(bareTimes, 0.5), percentile(bareTimes, 0.99)];
const [median, p99] = [percentile(deliveryTimes, 0.5), percentile(deliveryTimes, 0.99)];
console.log(`load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; ${deliveries} deliveries`);
console.log(`bare fetch of the route (404):           median ${bareMedian.toFixed(1)} ms, p99 ${bareP99.toFixed(1)} ms`);
console.log(`webhook POST → the run's first step:     median ${median.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
console.log(`ratio: median ${(median / bareMedian).toFixed(1)}x, p99 ${(p99 / bareP99).toFixed(1)}x`);

await worker.stop({ handBack: false });
server.close();
await closeProcessRuns();
await database.dispose();
