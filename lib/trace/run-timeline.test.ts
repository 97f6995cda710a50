import { describe, expect, it } from "vitest";
import { buildRunTimeline, placeNodeRun, placeStep, type TimelineSource } from "./run-timeline";
import type { NodeRunRecord } from "./run-trace";

const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, 0) + seconds * 1000).toISOString();

function nodeRun(id: string, startedAt: string, endedAt: string | null): NodeRunRecord {
  return { id, runId: "run", nodeId: id, nodeType: id, parentToolCallId: null, status: endedAt ? "completed" : "running", turns: 0, inputs: {}, outputs: {}, taintedOutputs: [], error: null, startedAt, endedAt };
}

const source = (overrides: Partial<TimelineSource>): TimelineSource => ({
  run: { startedAt: at(0), endedAt: at(10), status: "completed" },
  readAt: at(20),
  nodeRuns: [],
  firstLiveStep: {},
  attempts: [],
  waitEntries: [],
  nodeRunIdOf: (key) => key.replace(/#\d+$/, ""),
  ...overrides,
});

describe("a fork's timeline", () => {
  // The parent ran 12 minutes before the fork: its agent started at -720 s. The fork ran from 0 to 0.355 s.
  const forkSource = source({
    run: { startedAt: at(0), endedAt: at(0.355), status: "completed", forkedFrom: { runId: "parent", at: "agent#1/t1/c0", change: null } },
    nodeRuns: [nodeRun("agent", at(-720), at(0.35)), nodeRun("start", at(0.01), at(0.011)), nodeRun("end", at(0.35), at(0.355))],
    firstLiveStep: { agent: at(0.02) },
    attempts: [{ attempt: 0, first: at(0.012), last: at(0.35) }],
  });
  const timeline = buildRunTimeline(forkSource);

  it("places the copied node run where the fork replayed it: after Start, within the fork's wall time, marked with where it came from", () => {
    const agent = placeNodeRun(timeline, forkSource.nodeRuns[0] as NodeRunRecord);
    expect(agent.startedAt).toBe(at(0.02));
    expect(agent.startedAt > at(0.011)).toBe(true);
    expect(Date.parse(agent.endedAt!) - Date.parse(agent.startedAt)).toBe(330);
    expect(agent.replayedFrom).toEqual({ runId: "parent", startedAt: at(-720), durationMs: null });
  });

  it("places a copied call at its node run's replay, taking no time, with its original time and row", () => {
    const call = { id: "c1", nodeRunId: "agent", startedAt: at(-719), durationMs: 1500, stepKey: "agent#1/t1/c0" };
    expect(placeStep(timeline, call, (key) => `parent-row-of-${key}`)).toEqual({ ...call, startedAt: at(0.02), durationMs: 0, replayedFrom: { runId: "parent", startedAt: at(-719), durationMs: 1500, callId: "parent-row-of-agent#1/t1/c0" } });
    const live = { id: "c2", nodeRunId: "agent", startedAt: at(0.1), durationMs: 40 };
    expect(placeStep(timeline, live)).toBe(live);
  });

  it("a node run copied whole (the fork point is in a later node) is replayed at the fork's first work, taking no time", () => {
    const whole = buildRunTimeline({ ...forkSource, nodeRuns: [nodeRun("first", at(-700), at(-690)), ...forkSource.nodeRuns], firstLiveStep: {} });
    expect(whole.nodeRuns.first).toMatchObject({ startedAt: at(0.01), endedAt: at(0.01), replayed: { runId: "parent", durationMs: 10_000 } });
  });

  it("an approval the parent waited for, copied with the call it decided, is no wait of the fork", () => {
    const copied = buildRunTimeline({
      ...forkSource,
      waitEntries: [
        { key: "agent#1/t1/c0/waiting", value: { since: at(-719), policy: {} }, recordedAt: at(-719), sequence: 3 },
        { key: "agent#1/t1/c0/decision", value: { action: "approve", by: "ana", at: at(-700) }, recordedAt: at(-700), sequence: 0 },
      ],
    });
    expect(copied.waits.map((wait) => wait.kind)).toEqual(["queue"]);
  });

  it("the queue wait is from the fork's row to its first step, ended by a worker", () => {
    expect(timeline.waits).toEqual([expect.objectContaining({ kind: "queue", startedAt: at(0), endedAt: at(0.01), endedBy: "a worker" })]);
  });
});

describe("a run that waited for approval", () => {
  const waiting = { since: at(1), policy: { mode: "ask" }, deadline: at(3600) };
  const approvalSource = source({
    run: { startedAt: at(0), endedAt: at(32), status: "completed" },
    nodeRuns: [nodeRun("start", at(0.5), at(31.2)), nodeRun("clerk", at(0.6), at(31.9))],
    attempts: [
      { attempt: 0, first: at(0.7), last: at(1) },
      { attempt: 1, first: at(31.1), last: at(31.9) },
    ],
    waitEntries: [
      { key: "clerk#1/t2/c0/waiting", value: waiting, recordedAt: at(1), sequence: 7 },
      { key: "clerk#1/t2/c0/decision", value: { action: "approve", by: "ana", at: at(31) }, recordedAt: at(31), sequence: 0 },
    ],
  });
  const timeline = buildRunTimeline(approvalSource);

  it("has the wait as its own span on the node run that asked, ended by the person who decided", () => {
    expect(timeline.waits.find((wait) => wait.kind === "approval")).toEqual({
      key: "clerk#1/t2/c0/waiting",
      kind: "approval",
      nodeRunId: "clerk",
      callKey: "clerk#1/t2/c0",
      sequence: 7,
      startedAt: at(1),
      endedAt: at(31),
      endedBy: "ana",
      label: "Waited for approval of call clerk#1/t2/c0: approved by ana",
    });
  });

  it("after the decision the run is queued again until a worker takes it up", () => {
    expect(timeline.waits.map((wait) => [wait.kind, wait.startedAt, wait.endedAt])).toEqual([
      ["queue", at(0), at(0.5)],
      ["approval", at(1), at(31)],
      ["queue", at(31), at(31.1)],
    ]);
  });

  it("a node run that spans the wait says how much of it was waiting; its start stays its real start", () => {
    expect(timeline.nodeRuns.clerk).toEqual({ startedAt: at(0.6), endedAt: at(31.9), waitedMs: 30_100 });
    expect(timeline.nodeRuns.start.waitedMs).toBe(30_100);
  });

  it("a wait no one has answered yet is open, and the run is not a fork: no row is moved", () => {
    const open = buildRunTimeline({ ...approvalSource, run: { startedAt: at(0), endedAt: null, status: "needs-attention" }, nodeRuns: [nodeRun("clerk", at(0.6), null)], attempts: [approvalSource.attempts[0]], waitEntries: [approvalSource.waitEntries[0]] });
    expect(open.waits.find((wait) => wait.kind === "approval")).toMatchObject({ endedAt: null, endedBy: null, label: "Waiting for approval of call clerk#1/t2/c0" });
    expect(open.nodeRuns.clerk.waitedMs).toBe(19_000); // from the wait's start to the read
    const call = { nodeRunId: "clerk", startedAt: at(0.8), durationMs: 5 };
    expect(placeStep(open, call)).toBe(call);
  });
});

describe("other waits", () => {
  it("a question's wait ends with the answer, by whom it was given", () => {
    const timeline = buildRunTimeline(
      source({
        waitEntries: [
          { key: "agent#1/t1/c0/elicit/0/waiting", value: { key: "agent#1/t1/c0/elicit/0", question: { message: "Which city?" }, since: at(2), deadline: at(99) }, recordedAt: at(2), sequence: 4 },
          { key: "agent#1/t1/c0/elicit/0", value: { answer: { action: "decline" }, by: "bo", at: at(5) }, recordedAt: at(5), sequence: 0 },
        ],
      }),
    );
    expect(timeline.waits.find((wait) => wait.kind === "question")).toMatchObject({ nodeRunId: "agent", callKey: "agent#1/t1/c0", startedAt: at(2), endedAt: at(5), endedBy: "bo", label: "Waited for an answer to a question of call agent#1/t1/c0: declined by bo" });
  });

  it("a gap between two attempts that no person's wait explains is a resume after the process stopped", () => {
    const timeline = buildRunTimeline(
      source({
        attempts: [
          { attempt: 1, first: at(8), last: at(9) },
          { attempt: 0, first: at(0.1), last: at(2) },
        ],
      }),
    );
    expect(timeline.waits.find((wait) => wait.kind === "resume")).toMatchObject({ key: "resume 1", startedAt: at(2), endedAt: at(8), endedBy: "a worker" });
  });

  it("a run whose first step started the moment it was written has no queue wait", () => {
    expect(buildRunTimeline(source({ nodeRuns: [nodeRun("start", at(0), at(1))] })).waits).toEqual([]);
  });

  it("a run still queued waits for a worker, and nothing ended that wait yet", () => {
    const timeline = buildRunTimeline(source({ run: { startedAt: at(0), endedAt: null, status: "queued" } }));
    expect(timeline.waits).toEqual([expect.objectContaining({ kind: "queue", endedAt: null, endedBy: null, label: "Queued: waiting for a worker" })]);
  });
});
