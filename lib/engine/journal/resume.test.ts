import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../tools/define-tool";
import type { ToolCallRow } from "../../trace/run-events";
import { chainDocument, runWithToolLayers, type Script, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";
import { memoryJournal } from "./memory-journal";
import type { RecordedStep, RunJournal } from "./run-journal";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
beforeAll(async () => (nodes = await writeToolLayerNodes()));
afterAll(async () => nodes.remove());

/** TEST DOUBLE: tools that count every execution (the "outside world"). */
function countingTools(counts: Map<string, number>) {
  const count = (name: string, key: string) => counts.set(`${name}:${key}`, (counts.get(`${name}:${key}`) ?? 0) + 1);
  return [
    defineTool({ name: "lookup", description: "Look an order up.", parameters: z.object({ id: z.string() }), idempotent: true, execute: ({ id }) => (count("lookup", id), { id, total: 42 }) }),
    defineTool({ name: "charge", description: "Charge an order.", parameters: z.object({ id: z.string() }), execute: ({ id }) => (count("charge", id), `charged ${id}`) }),
  ];
}

const script: Script = [
  { toolCalls: [{ name: "lookup", arguments: { id: "A1" } }, { name: "lookup", arguments: { id: "B2" } }] },
  { toolCalls: [{ name: "charge", arguments: { id: "A1" } }] },
  { toolCalls: [{ name: "save_to_memory", arguments: { key: "done", value: "A1" } }] },
  { toolCalls: [{ name: "read_memory", arguments: { key: "done" } }] },
  (request) => ({ text: `finished: ${request.results[0]?.output}` }),
];
const document = chainDocument([{ id: "clerk", type: "plain-agent", tools: [{ type: "custom", name: "lookup" }, { type: "custom", name: "charge" }, { type: "builtin", name: "save_to_memory" }, { type: "builtin", name: "read_memory" }] }]);

/** TEST DOUBLE: a journal whose store "dies" at the n-th write: nothing after it is recorded, as when the process is killed there. */
function dyingJournal(steps: Map<string, RecordedStep>, rows: ToolCallRow[], dieAt: number): RunJournal {
  let writes = 0;
  return {
    lookup: (key) => steps.get(key),
    async record(step, stepRows) {
      writes += 1;
      if (writes >= dieAt) throw new Error("the process was killed");
      rows.push(...(stepRows?.toolCalls ?? []));
      steps.set(step.key, step);
    },
  };
}

/** TEST DOUBLE: a journal whose process is killed once the charge has reached its tool, before its outcome is recorded. */
function killedAfterChargeRan(steps: Map<string, RecordedStep>): RunJournal {
  return {
    lookup: (key) => steps.get(key),
    async record(step) {
      if (step.key === "clerk#1/t2/c0") throw new Error("the process was killed");
      steps.set(step.key, step);
    },
  };
}

async function run(runId: string, journal: RunJournal, counts: Map<string, number>) {
  return runWithToolLayers({ runId, document, nodesDir: nodes.nodesDir, scripts: { clerk: script }, customTools: countingTools(counts), journal });
}

describe("resume from the journal", () => {
  it("a run killed after any step resumes to the same outputs and trace; no recorded step runs twice; the unsafe call caught mid-flight waits for a person", async () => {
    const baselineRows: ToolCallRow[] = [];
    const baselineSteps = memoryJournal({ toolCall: (row) => void baselineRows.push(row) });
    const baseline = await run("baseline", baselineSteps, new Map());
    expect(baseline.outcome).toMatchObject({ status: "completed", outputs: { result: expect.stringContaining("finished") } });
    const totalWrites = baselineSteps.steps.size;
    expect(totalWrites).toBeGreaterThan(6);

    let waitedForPerson = 0;
    for (let dieAt = 1; dieAt <= totalWrites; dieAt++) {
      const steps = new Map<string, RecordedStep>();
      const rows: ToolCallRow[] = [];
      const counts = new Map<string, number>();
      const first = await run(`run-${dieAt}`, dyingJournal(steps, rows, dieAt), counts);
      expect(first.outcome.status, `killed at write ${dieAt}`).toBe("interrupted");

      const resumedRows: ToolCallRow[] = [];
      const resumed = await run(`run-${dieAt}`, dyingJournal(steps, resumedRows, Infinity), counts);
      const chargeStartedUnrecorded = steps.has("clerk#1/t2/c0/start") && !steps.has("clerk#1/t2/c0");
      if (chargeStartedUnrecorded && resumed.outcome.status === "needs-attention") {
        expect(resumed.outcome.attention).toMatchObject({ key: "clerk#1/t2/c0", tool: "charge", server: "custom", arguments: { id: "A1" } });
        expect(counts.get("charge:A1")).toBe(1);
        // The person skips it with a typed result; that choice is journalled and the run goes on.
        steps.set("clerk#1/t2/c0/choice", { key: "clerk#1/t2/c0/choice", kind: "choice", value: { action: "skip", result: "charged A1 (checked by hand)" } });
        const after = await run(`run-${dieAt}`, dyingJournal(steps, resumedRows, Infinity), counts);
        expect(after.outcome.status).toBe("completed");
        expect(counts.get("charge:A1")).toBe(1);
        waitedForPerson += 1;
        continue;
      }
      expect(resumed.outcome, `killed at write ${dieAt}`).toMatchObject({ status: "completed", outputs: baseline.outcome.outputs });
      // The non-idempotent call never ran twice; every row is written once, with the same ids as an uninterrupted run's.
      expect(counts.get("charge:A1")).toBe(1);
      const written = [...rows, ...resumedRows];
      expect(new Set(written.map((row) => row.id)).size, `killed at write ${dieAt}`).toBe(written.length);
      const trace = (list: ToolCallRow[]) => list.map((row) => [row.stepKey, row.tool, JSON.stringify(row.arguments), JSON.stringify(row.result)]).sort();
      expect(trace(written), `killed at write ${dieAt}`).toEqual(trace(baselineRows));
    }
    // Exactly one kill point falls between "charge started" and "charge recorded".
    expect(waitedForPerson).toBe(1);
  });

  it("a person's run-again answers one attempt: killed again during the re-run, the call waits for a person again and never runs a third time", async () => {
    const counts = new Map<string, number>();
    const steps = new Map<string, RecordedStep>();
    const killedAfterCharge = killedAfterChargeRan(steps);
    const journal = dyingJournal(steps, [], Infinity);
    expect((await run("again", killedAfterCharge, counts)).outcome.status).toBe("interrupted");
    const first = await run("again", journal, counts);
    expect(first.outcome).toMatchObject({ status: "needs-attention", attention: { key: "clerk#1/t2/c0", choiceKey: "clerk#1/t2/c0/choice" } });
    steps.set("clerk#1/t2/c0/choice", { key: "clerk#1/t2/c0/choice", kind: "choice", value: { action: "run-again" } });
    // The re-run is its own attempt, with its own start; the process is killed during it too.
    expect((await run("again", killedAfterCharge, counts)).outcome.status).toBe("interrupted");
    expect(steps.has("clerk#1/t2/c0/start/2")).toBe(true);
    expect(counts.get("charge:A1")).toBe(2);
    const second = await run("again", journal, counts);
    expect(second.outcome).toMatchObject({ status: "needs-attention", attention: { key: "clerk#1/t2/c0", choiceKey: "clerk#1/t2/c0/choice/2" } });
    expect(counts.get("charge:A1"), "the first choice does not cover the second attempt").toBe(2);
    steps.set("clerk#1/t2/c0/choice/2", { key: "clerk#1/t2/c0/choice/2", kind: "choice", value: { action: "skip", result: "charged A1 (checked by hand)" } });
    expect((await run("again", journal, counts)).outcome.status).toBe("completed");
    expect(counts.get("charge:A1")).toBe(2);
  });

  it("a call whose later attempt stopped at a question still to be answered waits for that answer, not for a choice after a crash", async () => {
    const counts = new Map<string, number>();
    const steps = new Map<string, RecordedStep>();
    const killedAfterCharge = killedAfterChargeRan(steps);
    expect((await run("asking", killedAfterCharge, counts)).outcome.status).toBe("interrupted");
    // As a tool asking in its second attempt leaves the journal: the first attempt's question answered, the second's not yet.
    const question = (n: number) => ({ key: `clerk#1/t2/c0/elicit/${n}`, question: { mode: "form", message: `question ${n}`, requestedSchema: { type: "object", properties: {} } }, since: new Date().toISOString(), deadline: new Date(Date.now() + 3_600_000).toISOString() });
    const put = (key: string, kind: RecordedStep["kind"], value: unknown) => steps.set(key, { key, kind, value });
    put("clerk#1/t2/c0/elicit/0/waiting", "waiting", question(0));
    put("clerk#1/t2/c0/elicit/0", "decision", { answer: { action: "accept", content: {} }, by: "p", at: new Date().toISOString() });
    put("clerk#1/t2/c0/choice", "choice", { action: "run-again" });
    put("clerk#1/t2/c0/start/2", "call-start", { tool: "charge", server: "custom", arguments: { id: "A1" } });
    put("clerk#1/t2/c0/elicit/1/waiting", "waiting", question(1));
    const resumed = await run("asking", dyingJournal(steps, [], Infinity), counts);
    expect(resumed.outcome).toMatchObject({ status: "needs-attention", attention: { key: "clerk#1/t2/c0", choiceKey: "clerk#1/t2/c0/choice/2", question: { key: "clerk#1/t2/c0/elicit/1" } } });
    expect(counts.get("charge:A1")).toBe(1);
  });

  it("a recorded model turn is not asked again, and a recorded call is not run again", async () => {
    const counts = new Map<string, number>();
    const steps = new Map<string, RecordedStep>();
    const rows: ToolCallRow[] = [];
    await run("twice", dyingJournal(steps, rows, Infinity), counts);
    const again = await run("twice", dyingJournal(steps, [], Infinity), counts);
    expect(again.outcome).toMatchObject({ status: "completed", replayed: expect.any(Number) });
    expect(again.outcome.replayed).toBeGreaterThan(6);
    expect(again.models.get("clerk")?.requests).toEqual([]);
    expect(counts.get("lookup:A1")).toBe(1);
    expect(counts.get("charge:A1")).toBe(1);
  });
});
