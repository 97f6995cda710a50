import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listWaitingApprovals, recordApprovalDecision } from "@/lib/db/approvals";
import { writeToolLayerNodes } from "@/testing/engine/tool-layers.fixture";
import { queueMailRun, startMailWorker } from "@/testing/queue/mail-attack.fixture";
import type { WorkerRuntime } from "@/lib/runs/worker-runtime";
import { forkRun } from "./run-fork";
import { readWholeRunTrace } from "./whole-run-trace";
import { temporaryAppDatabase } from "../../testing/db/temporary-app-database.fixture";
import { buildTraceTree, type TraceRow } from "../trace/trace-tree";
import { runSteps } from "../trace/run-steps";
import { getTraceOverview } from "./trace-reads";

/**
 * The timeline as the database read builds it, for runs a real worker ran:
 * one that waited for a person's approval, and a fork of it replayed from
 * its journal. TEST DOUBLES: a scripted model, and mail tools that send
 * nothing (see startMailWorker).
 */
const database = temporaryAppDatabase();
let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let worker: WorkerRuntime;
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
  worker = startMailWorker({ databaseUrl: database.url, nodesDir: nodes.nodesDir });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await nodes?.remove();
});

const statusOf = async (id: string) => (await database.client.run.findUniqueOrThrow({ where: { id } })).status;
const ended = (id: string) => vi.waitFor(async () => expect(["completed", "failed"]).toContain(await statusOf(id)), { timeout: 20_000, interval: 50 });

const label = (row: TraceRow) =>
  row.kind === "node" ? row.nodeRun.nodeId : row.kind === "call" ? row.call.tool : row.kind === "turn" ? `turn ${row.turn.sequence}` : row.kind === "wait" ? `wait ${row.wait.kind}${row.wait.endedBy ? ` by ${row.wait.endedBy}` : ""}` : row.kind;

describe("the timeline of a run that waited for approval, and of its fork", () => {
  let parent = "";
  beforeAll(async () => {
    parent = "waited";
    await queueMailRun(database, parent);
    await vi.waitFor(async () => expect(await statusOf(parent)).toBe("needs-attention"), { timeout: 20_000, interval: 50 });
    const [waiting] = await listWaitingApprovals(worker.db);
    expect(await recordApprovalDecision(worker.db, waiting.callId, { action: "approve", by: "ana" })).toEqual({ ok: true, runId: parent });
    await ended(parent);
  }, 60_000);

  it("the wait is its own span, ended by ana, and each call comes after the turn that asked for it", async () => {
    const trace = (await readWholeRunTrace(database.client, parent))!;
    const rows = buildTraceTree(trace).rows.map(label);
    expect(rows).toEqual(["wait queue by a worker", "start", "clerk", "turn 1", "read_inbox", "turn 2", "wait approval by ana", "approval", "send_email", "turn 3", "wait queue by a worker", "end"]);
    const clerk = trace.nodeRuns.find((nodeRun) => nodeRun.nodeId === "clerk")!;
    const approval = trace.timeline!.waits.find((wait) => wait.kind === "approval")!;
    expect(clerk.waitedMs).toBeGreaterThanOrEqual(Date.parse(approval.endedAt!) - Date.parse(approval.startedAt));
  });

  it("the page's read gives the same waits, each placed among its node run's calls", async () => {
    const overview = (await getTraceOverview(parent))!;
    const approval = overview.timeline!.waits.find((wait) => wait.kind === "approval")!;
    expect(approval).toMatchObject({ endedBy: "ana", callsBefore: 1 });
    const clerk = overview.nodeRuns.find((nodeRun) => nodeRun.nodeId === "clerk")!;
    // Turn 3 comes after all three calls (read_inbox, the approval's row, send_email), not between them.
    expect(overview.turnPlaces![clerk.id]).toEqual([0, 1, 3]);
  });

  it("a fork places the steps it replayed inside its own time, after Start, marked with where they came from", async () => {
    const fork = await forkRun(worker.db, { runId: parent, at: "clerk#1/t1/c0", result: '"no mail"' });
    if (!fork.ok) throw new Error(fork.error);
    await ended(fork.runId);
    const trace = (await readWholeRunTrace(database.client, fork.runId))!;
    const { startedAt, endedAt } = trace.run;
    const wall = Date.parse(endedAt!) - Date.parse(startedAt);
    expect(buildTraceTree(trace).rows.map(label).slice(0, 3)).toEqual(["wait queue by a worker", "start", "clerk"]);
    for (const step of runSteps(trace)) {
      expect(step.startedAt >= startedAt && step.startedAt <= endedAt!, `${step.key} starts inside the fork`).toBe(true);
      expect(step.durationMs!, `${step.key} takes no longer than the fork`).toBeLessThanOrEqual(wall);
    }
    const replayed = trace.toolCalls.find((call) => call.tool === "read_inbox")!;
    expect(replayed).toMatchObject({ durationMs: 0, replayedFrom: { runId: parent, callId: expect.any(String) } });
    const original = await database.client.toolCall.findUniqueOrThrow({ where: { id: replayed.replayedFrom!.callId } });
    expect(original).toMatchObject({ runId: parent, tool: "read_inbox" });
    expect(trace.nodeRuns.find((nodeRun) => nodeRun.nodeId === "clerk")!.replayedFrom).toMatchObject({ runId: parent });
    expect(trace.modelTurns!.find((turn) => turn.sequence === 1)!.replayedFrom).toMatchObject({ runId: parent });
  }, 30_000);
});
