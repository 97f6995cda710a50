import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTemporaryDatabase, type TemporaryDatabase } from "@/testing/db/temporary-database.fixture";
import { chainDocument, writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { startFixtureWorker } from "@/testing/runs/worker.fixture";
import type { WorkerRuntime } from "@/lib/runs/worker-runtime";

let database: TemporaryDatabase;
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let worker: WorkerRuntime;
beforeAll(async () => {
  database = await createTemporaryDatabase();
  nodes = await writeToolLayerNodes();
});
afterAll(async () => {
  await worker?.stop();
  await database?.dispose();
  await nodes?.remove();
});

/** An outside host's service call's Run, held by the web process serving it until `leaseExpiresAt`. */
async function serviceCallRun(leaseExpiresAt: Date): Promise<string> {
  const id = randomUUID();
  await database.client.run.create({
    data: {
      id,
      document: JSON.stringify(chainDocument([{ id: "agent", type: "plain-agent", tools: [] }])),
      input: JSON.stringify({ mcpHost: { client: "a-host", clientVersion: "1", kind: "service", tool: "convertUnits", server: "converter", arguments: {} } }),
      status: "running",
      workerId: "another-host:4242:web",
      leaseExpiresAt,
    },
  });
  return id;
}

describe("an outside host's service call whose web process died", () => {
  it("is ended failed by a worker once the serving process's lease has run out; one whose lease holds is left to it", async () => {
    const dead = await serviceCallRun(new Date(Date.now() - 1000));
    const serving = await serviceCallRun(new Date(Date.now() + 600_000));
    worker = startFixtureWorker({ databaseUrl: database.url, nodesDir: nodes.nodesDir, overrides: () => ({}) });
    await vi.waitFor(async () => expect((await database.client.run.findUniqueOrThrow({ where: { id: dead } })).status).toBe("failed"), { timeout: 10_000, interval: 50 });
    expect((await database.client.run.findUniqueOrThrow({ where: { id: dead } })).error).toMatch(/the web process serving this outside call stopped/);
    expect((await database.client.run.findUniqueOrThrow({ where: { id: serving } })).status).toBe("running");
  });
});
