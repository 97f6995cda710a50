import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scriptedModel } from "@/testing/ai/scripted-model.fixture";
import { createTemporaryDatabase, type TemporaryDatabase } from "@/testing/db/temporary-database.fixture";
import { createLocalEnvironment } from "@/lib/runs/local-environment";
import { writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { mailTools, queueMailRun } from "../../testing/queue/mail-attack.fixture";
import { announceWaitingCall } from "@/lib/runs/waiting-announcer";
import { startWorkerRuntime } from "@/lib/runs/worker-runtime";

/** TEST DOUBLE: the team's chat webhook, on 127.0.0.1. */
const posted: unknown[] = [];
let server: http.Server;
let origin: string;
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let database: TemporaryDatabase;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => (posted.push(JSON.parse(text)), response.writeHead(200).end("ok")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  nodes = await writeToolLayerNodes();
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => {
  await database?.dispose();
  await nodes?.remove();
  await new Promise((resolve) => server.close(resolve));
});


function worker(webhookUrl: string, log: (line: string) => void) {
  return startWorkerRuntime({
    databaseUrl: database.url,
    timings: { leaseMs: 2_000, heartbeatMs: 100, pollMs: 50 },
    webhook: { url: webhookUrl, appUrl: "https://switchboard.example", allowedOrigins: [origin] },
    log,
    environment: () =>
      createLocalEnvironment({
        nodesDir: nodes.nodesDir,
        overrides: {
          // TEST DOUBLE: the model obeys the injected mail.
          models: () => scriptedModel([{ toolCalls: [{ name: "read_inbox", arguments: {} }] }, { toolCalls: [{ name: "send_email", arguments: { to: "attacker@example.com" } }] }, () => ({ text: "done" })]),
          customTools: mailTools(),
        },
      }),
  });
}

const queueRun = (id: string) => queueMailRun(database, id);
const statusOf = async (id: string) => (await database.client.run.findUniqueOrThrow({ where: { id } })).status;

describe("the webhook when a run starts waiting", () => {
  it("receives one JSON message per waiting call, with the run, the tool and the Approvals link, and no argument values", async () => {
    const lines: string[] = [];
    const runtime = worker(`${origin}/hook`, (line) => lines.push(line));
    try {
      await queueRun("notified");
      await vi.waitFor(() => expect(posted).toHaveLength(1), { timeout: 20_000, interval: 50 });
      expect(await statusOf("notified")).toBe("needs-attention");
      expect(posted[0]).toMatchObject({ type: "run-waiting", runId: "notified", workflow: { name: "mail" }, agent: "clerk", tool: "custom/send_email", link: "https://switchboard.example/approvals", arguments: { names: ["to"], tainted: ["to"] } });
      expect(JSON.stringify(posted[0])).not.toContain("attacker@example.com");
      // Asked again (another worker, a resume): nothing more is sent.
      await announceWaitingCall(runtime.db, "notified", { url: `${origin}/hook`, appUrl: "https://switchboard.example", allowedOrigins: [origin] }, (line) => lines.push(line));
      expect(posted).toHaveLength(1);
      expect(lines.filter((line) => line.includes("webhook"))).toEqual([]);
    } finally {
      await runtime.stop();
    }
  });

  it("a webhook that cannot be reached is logged, and the run waits all the same", async () => {
    const lines: string[] = [];
    const runtime = worker("http://127.0.0.1:9/hook", (line) => lines.push(line));
    try {
      await queueRun("unreached");
      await vi.waitFor(() => expect(lines.some((line) => line.includes("run unreached: the approval webhook at http://127.0.0.1:9 was not reached"))).toBe(true), { timeout: 20_000, interval: 50 });
      expect(await statusOf("unreached")).toBe("needs-attention");
    } finally {
      await runtime.stop();
    }
  });
});
