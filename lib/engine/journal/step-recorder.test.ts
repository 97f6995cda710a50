import { describe, expect, it } from "vitest";
import { type JournalEntry, JournalUnavailableError, type RecordedStep, type RunJournal } from "./run-journal";
import { maxStepsBehind, StepRecorder } from "./step-recorder";

/** TEST DOUBLE: a journal whose commits finish when the test says so; it keeps each batch it was given. */
function heldJournal(options: { batches?: boolean } = {}) {
  const committed = new Map<string, RecordedStep>();
  const batches: string[][] = [];
  const open: Array<{ keys: string[]; finish(error?: Error): void }> = [];
  const commit = (entries: ReadonlyArray<JournalEntry>) =>
    new Promise<void>((resolve, reject) => {
      const keys = entries.map((entry) => entry.step.key);
      batches.push(keys);
      open.push({ keys, finish: (error) => (error ? reject(error) : (entries.forEach((entry) => committed.set(entry.step.key, entry.step)), resolve())) });
    });
  const journal: RunJournal = {
    lookup: (key) => committed.get(key),
    record: (step, rows) => commit([{ step, rows: rows ?? { toolCalls: [], taint: [] }, recordedAt: new Date(), repeatable: false }]),
    ...(options.batches === false ? {} : { recordSteps: commit }),
  };
  /** Finishes the oldest commit under way, once one is. */
  const next = async (error?: Error) => {
    for (let spin = 0; open.length === 0 && spin < 100; spin++) await new Promise((resolve) => setImmediate(resolve));
    open.shift()!.finish(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { journal, committed, batches, next };
}

const step = (key: string): RecordedStep => ({ key, kind: "model-turn", value: { key } });
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("StepRecorder", () => {
  it("lets steps safe to repeat commit behind the run, in order and in batches; a step that is not waits for everything before it", async () => {
    const { journal, batches, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    await recorder.record(step("a#1/t1"), { repeatable: true }); // resolves at once: its commit is under way
    await recorder.record(step("a#1/t1/c0"), { repeatable: true });
    await recorder.record(step("a#1/t2"), { repeatable: true });
    expect(recorder.has("a#1/t1/c0"), "a recorded step is found before its commit ends").toBeDefined();
    const charge = recorder.record({ key: "a#1/t2/c0/start", kind: "call-start", value: {} });
    expect(await settled(charge), "the start of a call not safe to repeat waits").toBe(false);
    await next(); // the first batch: the first step alone
    expect(await settled(charge)).toBe(false);
    await next(); // what queued behind it, in one batch
    await charge;
    expect(batches).toEqual([["a#1/t1"], ["a#1/t1/c0", "a#1/t2", "a#1/t2/c0/start"]]);
    await recorder.flush();
  });

  it("a batch that fails fails every step after it: the next step and the flush say the journal is gone, and nothing later is written", async () => {
    const { journal, batches, committed, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    await recorder.record(step("a#1/t1"), { repeatable: true });
    await recorder.record(step("a#1/t1/c0"), { repeatable: true });
    await next(new JournalUnavailableError("could not record step a#1/t1: the database is gone"));
    await expect(recorder.record(step("a#1/t2"), { repeatable: true })).rejects.toMatchObject({ name: "RunInterruption", reason: "journal-unavailable" });
    await expect(recorder.flush()).rejects.toBeInstanceOf(JournalUnavailableError);
    expect(batches).toEqual([["a#1/t1"]]);
    expect(committed.size).toBe(0);
    expect(recorder.has("a#1/t1/c0"), "a step whose commit failed is not recorded").toBeUndefined();
  });

  it(`waits once ${maxStepsBehind} steps wait to be sent, until the batch under way ends: the run never gets far ahead of what is durable`, async () => {
    const { journal, batches, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    // The first step goes at once; the next ones queue behind its commit.
    for (let turn = 1; turn <= maxStepsBehind + 1; turn++) await recorder.record(step(`a#1/t${turn}`), { repeatable: true });
    const over = recorder.record(step(`a#1/t${maxStepsBehind + 2}`), { repeatable: true });
    expect(await settled(over)).toBe(false);
    await next(); // the first batch ends: the queue goes out as the next, and the run goes on while it commits
    await over;
    expect(batches.map((batch) => batch.length)).toEqual([1, maxStepsBehind + 1]);
    await next();
    await recorder.flush();
  });

  it("with a journal that cannot batch, every step is committed before the run goes on", async () => {
    const { journal, next } = heldJournal({ batches: false });
    const recorder = new StepRecorder("run", journal);
    const turn = recorder.record(step("a#1/t1"), { repeatable: true });
    expect(await settled(turn)).toBe(false);
    await next();
    await turn;
  });

  it("durable(key) waits for that step and what came before it, not for steps recorded after it; settled() likewise", async () => {
    const { journal, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    await recorder.record(step("a#1/t1"), { repeatable: true });
    const turn = recorder.durable("a#1/t1");
    const everything = recorder.settled();
    expect(await settled(turn)).toBe(false);
    // Another branch keeps recording while the turn's batch commits: neither wait is held back by it.
    for (let index = 0; index < 10; index++) await recorder.record(step(`b#1/t1/c${index}`), { repeatable: true });
    await next();
    await turn;
    await everything;
    await recorder.durable("never-recorded"); // nothing to wait for
    await next();
    await recorder.flush();
  });

  it("after a failed batch, no new step starts: ensureRunning says the journal is gone", async () => {
    const { journal, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    await recorder.record(step("a#1/t1"), { repeatable: true });
    await next(new JournalUnavailableError("the database is gone"));
    expect(() => recorder.ensureRunning()).toThrow(expect.objectContaining({ name: "RunInterruption", reason: "journal-unavailable" }));
    await expect(recorder.durable("a#1/t1")).rejects.toMatchObject({ reason: "journal-unavailable" });
  });

  it("a node's end waits for the steps behind it", async () => {
    const { journal, next } = heldJournal();
    const recorder = new StepRecorder("run", journal);
    const ends: string[] = [];
    const sink = recorder.sink({ runStart: async () => undefined, nodeStart: async () => undefined, toolCall: async () => undefined, runEnd: async () => undefined, nodeEnd: async (event) => void ends.push(event.nodeRunId) });
    await recorder.record(step("a#1/t1"), { repeatable: true });
    const end = Promise.resolve(sink.nodeEnd({ runId: "run", nodeRunId: "n1", status: "completed", outputs: {}, error: null, turns: 1, taintedOutputs: [], endedAt: new Date().toISOString() }));
    expect(await settled(end)).toBe(false);
    expect(ends).toEqual([]);
    await next();
    await end;
    expect(ends).toEqual(["n1"]);
  });
});
