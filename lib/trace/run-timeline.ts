import type { NodeRunRecord, RunRecord } from "./run-trace";
import type { ReplayOrigin, RunTimeline, TimelineNodeRun, TimelineWait } from "./trace-types";

/**
 * A run's timeline from what its rows recorded (see RunTimeline). What the
 * rows alone would say is wrong in three ways, and this is where each is
 * put right:
 * - a fork's rows copied from its parent keep the parent's times: they are
 *   placed at the moment the fork replayed them (no model or tool called,
 *   so they take no time), each with where it came from;
 * - a run that stopped for a person, or whose process stopped, has its
 *   waits as spans of their own, with who or what ended them;
 * - a node run that spans a wait is still one span, but says how much of
 *   it was waiting.
 * Pure: lib/db/trace-reads.ts and lib/db/whole-run-trace.ts read the rows
 * and place every row they answer with by the timeline.
 */

export interface TimelineSource {
  run: Pick<RunRecord, "startedAt" | "endedAt" | "status" | "forkedFrom">;
  /** The "now" of a run still going on. */
  readAt: string;
  nodeRuns: ReadonlyArray<Pick<NodeRunRecord, "id" | "startedAt" | "endedAt">>;
  /** Each node run's earliest call or model turn that ran in this run (started at or after the run's start). */
  firstLiveStep: Readonly<Record<string, string>>;
  /** When the run's worker did something, per attempt (the run's resume count when written): its first and last row written at or after the run's start. */
  attempts: ReadonlyArray<{ attempt: number; first: string; last: string }>;
  /** The journal's `…/waiting` entries and the entries that answered them (an approval's `…/decision`, a question's answer). */
  waitEntries: ReadonlyArray<{ key: string; value: unknown; recordedAt: string; sequence: number }>;
  /** The node run id of a node run key (`agent#1`): the run's stable ids. */
  nodeRunIdOf: (nodeRunKey: string) => string;
}

/**
 * @example
 * buildRunTimeline({ run, readAt, nodeRuns, firstLiveStep: {}, attempts: [], waitEntries: [], nodeRunIdOf }).waits // [{ kind: "queue", … }]
 */
export function buildRunTimeline(source: TimelineSource): RunTimeline {
  const { run } = source;
  const runStart = run.startedAt;
  const liveNodeStarts = source.nodeRuns.map((nodeRun) => nodeRun.startedAt).filter((at) => at >= runStart);
  const firstWork = earliest([...liveNodeStarts, ...source.attempts.map((attempt) => attempt.first)]);
  const replay = run.forkedFrom ? { fromRunId: run.forkedFrom.runId, before: runStart, at: firstWork ?? runStart } : null;
  const waits = [...queueWait(source, firstWork), ...personWaits(source), ...attemptGaps(source)].sort((a, b) => compareText(a.startedAt, b.startedAt));
  const until = run.endedAt ?? source.readAt;
  const nodeRuns: Record<string, TimelineNodeRun> = {};
  for (const nodeRun of source.nodeRuns) {
    const placed = placeNodeRunTimes(nodeRun, source, replay);
    nodeRuns[nodeRun.id] = { ...placed, waitedMs: overlapMs(placed.startedAt, placed.endedAt ?? until, waits) };
  }
  return { startedAt: runStart, endedAt: run.endedAt, replay, nodeRuns, waits };
}

function placeNodeRunTimes(nodeRun: Pick<NodeRunRecord, "id" | "startedAt" | "endedAt">, source: TimelineSource, replay: RunTimeline["replay"]): Omit<TimelineNodeRun, "waitedMs"> {
  if (!replay || nodeRun.startedAt >= replay.before) return { startedAt: nodeRun.startedAt, endedAt: nodeRun.endedAt };
  // Copied from the parent: it starts again when the fork replays it, at its first live step, or ends there.
  const endedLive = nodeRun.endedAt !== null && nodeRun.endedAt >= replay.before ? nodeRun.endedAt : null;
  const startedAt = source.firstLiveStep[nodeRun.id] ?? endedLive ?? replay.at;
  const origin: ReplayOrigin = { runId: replay.fromRunId, startedAt: nodeRun.startedAt, durationMs: endedLive || !nodeRun.endedAt ? null : Date.parse(nodeRun.endedAt) - Date.parse(nodeRun.startedAt) };
  return { startedAt: earliest([startedAt, endedLive ?? startedAt])!, endedAt: endedLive ?? (nodeRun.endedAt ? startedAt : null), replayed: origin };
}

/** Queued until a worker took the run: from the run's row to its first step. */
function queueWait(source: TimelineSource, firstWork: string | null): TimelineWait[] {
  const { run } = source;
  if (firstWork === null && run.status !== "queued") return [];
  const endedAt = firstWork ?? null;
  if (endedAt !== null && endedAt <= run.startedAt) return []; // taken the moment it was written: no wait
  return [{ key: "queue", kind: "queue", nodeRunId: null, callKey: null, sequence: 0, startedAt: run.startedAt, endedAt, endedBy: endedAt ? "a worker" : null, label: endedAt ? "Queued until a worker took the run" : "Queued: waiting for a worker" }];
}

interface PersonAnswer {
  by?: string;
  at?: string;
  action?: string;
  answer?: { action?: string };
}

/** Approvals and questions: from the `…/waiting` entry to the person's answer (or still open). */
function personWaits(source: TimelineSource): TimelineWait[] {
  const byKey = new Map(source.waitEntries.map((entry) => [entry.key, entry]));
  const waits: TimelineWait[] = [];
  for (const entry of source.waitEntries) {
    if (!entry.key.endsWith("/waiting")) continue;
    const base = entry.key.slice(0, -"/waiting".length);
    const request = (entry.value ?? {}) as { since?: string; question?: unknown; policy?: unknown };
    const isQuestion = request.question !== undefined;
    const callKey = isQuestion ? base.replace(/\/elicit\/\d+(?:\/.*)?$/, "") : base;
    const answered = byKey.get(isQuestion ? base : `${base}/decision`)?.value as PersonAnswer | undefined;
    const endedAt = answered?.at ?? null;
    // A fork copies its parent's waits with the entries beside a kept call: that person waited in the parent, not here.
    if (endedAt !== null && endedAt < source.run.startedAt) continue;
    const endedBy = answered ? (answered.by ?? "a person") : null;
    const nodeRunKey = callKey.replace(/\/t\d+\/c\d+$/, "");
    const what = isQuestion ? `an answer to a question of call ${callKey}` : `approval of call ${callKey}`;
    const outcome = answered ? (isQuestion ? answerWord(answered.answer?.action) : answered.action === "approve" ? "approved" : "denied") : null;
    waits.push({
      key: entry.key,
      kind: isQuestion ? "question" : "approval",
      nodeRunId: source.nodeRunIdOf(nodeRunKey),
      callKey,
      sequence: entry.sequence,
      startedAt: request.since ?? entry.recordedAt,
      endedAt,
      endedBy,
      label: answered ? `Waited for ${what}: ${outcome} by ${endedBy === "timeout" ? "the timeout" : endedBy}` : `Waiting for ${what}`,
    });
  }
  return waits;
}

function answerWord(action: string | undefined): string {
  return action === "accept" ? "answered" : action === "decline" ? "declined" : action === "cancel" ? "cancelled" : "answered";
}

/**
 * Between two attempts of the run: the part a person's wait explains is
 * theirs; the rest is the run queued again (after a person's answer) or
 * waiting for a worker to take it up after its process stopped.
 */
function attemptGaps(source: TimelineSource): TimelineWait[] {
  const people = personWaits(source);
  const attempts = [...source.attempts].sort((a, b) => a.attempt - b.attempt);
  const gaps: TimelineWait[] = [];
  for (let index = 1; index < attempts.length; index++) {
    const from = attempts[index - 1].last;
    const to = attempts[index].first;
    if (to <= from) continue;
    const answered = people.filter((wait) => wait.endedAt !== null && wait.endedAt > from && wait.endedAt <= to).sort((a, b) => compareText(b.endedAt!, a.endedAt!))[0];
    const key = `resume ${attempts[index].attempt}`;
    if (answered) gaps.push({ key, kind: "queue", nodeRunId: null, callKey: null, sequence: 0, startedAt: answered.endedAt!, endedAt: to, endedBy: "a worker", label: "Queued again after the answer, until a worker took the run up" });
    else gaps.push({ key, kind: "resume", nodeRunId: null, callKey: null, sequence: 0, startedAt: from, endedAt: to, endedBy: "a worker", label: "The run's process stopped: waited until a worker resumed it from its journal" });
  }
  return gaps;
}

/**
 * A call or model turn placed on the timeline: a row copied from a fork's
 * parent sits where the fork replayed it (at its node run's start in the
 * fork, taking no time), with where it came from; any other row as it was
 * recorded.
 *
 * @example
 * placeStep(timeline, call, (key) => stableId(parentId, key)) // { ...call, startedAt: "…", durationMs: 0, replayedFrom: { runId, startedAt, durationMs } }
 */
export function placeStep<T extends { nodeRunId: string | null; startedAt: string; durationMs: number; stepKey?: string | null }>(timeline: RunTimeline, step: T, originCallId?: (key: string) => string | undefined): T & { replayedFrom?: ReplayOrigin } {
  const replay = timeline.replay;
  if (!replay || step.startedAt >= replay.before) return step;
  const at = (step.nodeRunId ? timeline.nodeRuns[step.nodeRunId]?.startedAt : undefined) ?? replay.at;
  const callId = step.stepKey ? originCallId?.(step.stepKey) : undefined;
  return { ...step, startedAt: at, durationMs: 0, replayedFrom: { runId: replay.fromRunId, startedAt: step.startedAt, durationMs: step.durationMs, ...(callId ? { callId } : {}) } };
}

/** A node run placed on the timeline (see TimelineNodeRun). */
export function placeNodeRun<T extends NodeRunRecord>(timeline: RunTimeline, nodeRun: T): T {
  const placed = timeline.nodeRuns[nodeRun.id];
  if (!placed) return nodeRun;
  return { ...nodeRun, startedAt: placed.startedAt, endedAt: placed.endedAt, waitedMs: placed.waitedMs, ...(placed.replayed ? { replayedFrom: placed.replayed } : {}) };
}

/** How much of [start, end) the waits cover (waits may overlap: counted once). */
function overlapMs(start: string, end: string, waits: readonly TimelineWait[]): number {
  const from = Date.parse(start);
  const to = Date.parse(end);
  const pieces = waits
    .map((wait) => [Math.max(from, Date.parse(wait.startedAt)), Math.min(to, wait.endedAt ? Date.parse(wait.endedAt) : to)] as const)
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = from;
  for (const [a, b] of pieces) {
    const begin = Math.max(a, reached);
    if (b > begin) total += b - begin;
    reached = Math.max(reached, b);
  }
  return total;
}

function earliest(times: readonly string[]): string | null {
  return times.reduce<string | null>((min, at) => (min === null || at < min ? at : min), null);
}

/** ISO times of one format sort as text. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
