import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listWaitingApprovals, recordApprovalDecision, denyExpiredApprovals } from "@/lib/db/approvals";
import { createTemporaryDatabase, type TemporaryDatabase } from "@/testing/db/temporary-database.fixture";
import { writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { queueMailRun, startMailWorker } from "../../testing/queue/mail-attack.fixture";
import type { WorkerRuntime } from "@/lib/runs/worker-runtime";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let database: TemporaryDatabase;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => {
  await database?.dispose();
  await nodes?.remove();
});

const sent: Array<{ to: string }> = [];

function worker(clock: { now: Date }): WorkerRuntime {
  return startMailWorker({ databaseUrl: database.url, nodesDir: nodes.nodesDir, sent, now: () => clock.now });
}

const queueRun = (id: string) => queueMailRun(database, id);

const reopen = async () => (await import("@/lib/db/sql/open-database")).openSqlDatabase(database.url);
const statusOf = async (id: string) => (await database.client.run.findUniqueOrThrow({ where: { id } })).status;

describe("a run waiting for approval holds no process", () => {
  it("survives a restart of every process, is approved an hour later and finishes on a different worker, the mail sent once; deciding again is refused", async () => {
    const clock = { now: new Date("2026-03-01T09:00:00Z") };
    const first = worker(clock);
    await queueRun("restart");
    await vi.waitFor(async () => expect(await statusOf("restart")).toBe("needs-attention"), { timeout: 20_000, interval: 50 });
    await first.stop();
    expect(sent).toEqual([]);

    const [waiting] = (await listWaitingApprovals(await reopen())).filter((wait) => wait.runId === "restart");
    expect(waiting).toMatchObject({ runId: "restart", request: { tool: "send_email", approval: { rule: "taintedWrite", tainted: [{ path: "to", value: "attacker@example.com" }] } } });

    clock.now = new Date("2026-03-01T10:00:00Z");
    const second = worker(clock);
    try {
      expect(await recordApprovalDecision(second.db, waiting.callId, { action: "approve", arguments: { to: 42 }, by: "ana" }, clock.now)).toMatchObject({ ok: false, field: "arguments" });
      expect(await statusOf("restart")).toBe("needs-attention");
      expect(await recordApprovalDecision(second.db, waiting.callId, { action: "approve", by: "ana" }, clock.now)).toEqual({ ok: true, runId: "restart" });
      await vi.waitFor(async () => expect(await statusOf("restart")).toBe("completed"), { timeout: 20_000, interval: 50 });
      const run = await database.client.run.findUniqueOrThrow({ where: { id: "restart" } });
      expect(run.workerId).toBe(second.worker.workerId);
      expect(sent).toEqual([{ to: "attacker@example.com" }]);
      const decision = await database.client.toolCall.findFirstOrThrow({ where: { runId: "restart", tool: "approval" } });
      expect(JSON.parse(decision.arguments)).toMatchObject({ decision: "approved", by: "ana", at: "2026-03-01T10:00:00.000Z" });
      expect(await recordApprovalDecision(second.db, waiting.callId, { action: "deny", reason: "too late", by: "bo" })).toMatchObject({ ok: false, error: expect.stringContaining("already approved by ana") });
    } finally {
      await second.stop();
    }
  }, 60_000);

  it("a wait past its deadline is denied by the sweep (fake clock); a cancelled run's call cannot be decided", async () => {
    const clock = { now: new Date("2026-03-02T09:00:00Z") };
    const runtime = worker(clock);
    try {
      await queueRun("late");
      await vi.waitFor(async () => expect(await statusOf("late")).toBe("needs-attention"), { timeout: 20_000, interval: 50 });
      expect(await denyExpiredApprovals(runtime.db, new Date("2026-03-03T08:59:00Z"))).toEqual([]);
      expect(await denyExpiredApprovals(runtime.db, new Date("2026-03-03T09:00:00Z"))).toEqual(["late"]);
      await vi.waitFor(async () => expect(await statusOf("late")).toBe("completed"), { timeout: 20_000, interval: 50 });
      const output = JSON.parse((await database.client.run.findUniqueOrThrow({ where: { id: "late" } })).outputs ?? "{}");
      expect(output.result).toContain("no one decided within 24 h");

      await queueRun("gone");
      await vi.waitFor(async () => expect(await statusOf("gone")).toBe("needs-attention"), { timeout: 20_000, interval: 50 });
      const [waiting] = (await listWaitingApprovals(runtime.db)).filter((wait) => wait.runId === "gone");
      await database.client.run.update({ where: { id: "gone" }, data: { status: "cancelled", attention: null } });
      expect(await recordApprovalDecision(runtime.db, waiting.callId, { action: "approve", by: "ana" })).toMatchObject({ ok: false, error: expect.stringContaining("run is cancelled") });
    } finally {
      await runtime.stop();
    }
    expect(sent.filter((mail) => mail.to === "attacker@example.com")).toHaveLength(1);
  }, 60_000);
});
