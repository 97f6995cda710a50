/**
 * A loop across nodes end to end: a node that opens a loop over a list puts
 * out each item, the body runs on it, and a node that advances the loop
 * signals the first one again (a conditional output, so the loop has an
 * exit) until the list is used up, then puts out what the passes collected.
 * The two loop node types are written here, in a temp copy of nodes/.
 */
import { randomUUID } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWorkflow, type WorkflowInput } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";
import { memoryJournal } from "./journal/memory-journal";
import type { RecordedStep, RunJournal } from "./journal/run-journal";

const loopNodes: Record<string, string> = {
  "each-item/interface.yaml": `name: each-item
title: Each item
description: Puts out the items of a list one at a time; the paired loop end asks for the next.
category: Flow
kind: PromiseNode
inputs:
  - { name: items, type: array }
  - { name: next, type: signal }
outputs:
  - { name: item, type: object }
  - { name: index, type: number }
`,
  "each-item/api/run.yaml": `- name: resumed
  when: "return inputs.next !== undefined && inputs.next !== null"
  loop: read
  key: "{{ run.nodeId }}"
- name: opened
  when: "return inputs.next === undefined || inputs.next === null"
  loop: open
  key: "{{ run.nodeId }}"
  value: "return inputs.items"
`,
  "each-item/api/events.yaml": `- emit: item
  when: "return response.total > 0"
  value: "return response.item"
- emit: index
  when: "return response.total > 0"
  value: "return response.index"
`,
  "end-item/interface.yaml": `name: end-item
title: End item
description: Ends one pass of a loop, keeping a value, and asks for the next item or says the loop is done.
category: Flow
kind: PromiseNode
inputs:
  - { name: input, type: object, required: true }
outputs:
  - { name: next, type: object }
  - { name: done, type: object }
`,
  "end-item/config.yaml": `configSchema:
  type: object
  properties:
    loopStart: { type: string, default: "" }
`,
  "end-item/api/run.yaml": `- name: pass
  loop: advance
  key: "{{ config.loopStart }}"
  value: "return String(inputs.input).toUpperCase()"
`,
  "end-item/api/events.yaml": `- emit: next
  when: "return response.continuing"
  value: "return { index: response.index }"
- emit: done
  when: "return !response.continuing"
  value: "return { collected: response.collected, total: response.total }"
`,
};

let nodesDir: string;
beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-loop-"));
  nodesDir = path.join(root, "nodes");
  await cp(path.resolve("nodes"), nodesDir, { recursive: true });
  for (const [file, text] of Object.entries(loopNodes)) {
    await mkdir(path.dirname(path.join(nodesDir, file)), { recursive: true });
    await writeFile(path.join(nodesDir, file), text);
  }
});
afterAll(async () => {
  await rm(path.dirname(nodesDir), { recursive: true, force: true });
});

/** start.items → each (loop start); each.item → close (the body is one node here); close.next → each.next; close.done → end. */
const loopWorkflow = (loopStart = "each"): WorkflowInput => ({
  version: 1,
  name: "loop",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "items", type: "array", required: true }] } },
    { id: "each", type: "each-item", position: { x: 200, y: 0 }, config: {} },
    { id: "close", type: "end-item", position: { x: 400, y: 0 }, config: { loopStart } },
    { id: "end", type: "end", position: { x: 600, y: 0 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "items", target: "each", targetHandle: "items" },
    { id: "e2", kind: "signal", source: "each", sourceHandle: "item", target: "close", targetHandle: "input" },
    { id: "e3", kind: "signal", source: "close", sourceHandle: "next", target: "each", targetHandle: "next" },
    { id: "e4", kind: "signal", source: "close", sourceHandle: "done", target: "end", targetHandle: "result" },
  ],
});

/** TEST DOUBLE: a journal whose store "dies" at the n-th write (nothing after it is recorded), as when the process is killed there. */
function dyingJournal(steps: Map<string, RecordedStep>, dieAt: number): RunJournal {
  let writes = 0;
  return {
    lookup: (key) => steps.get(key),
    async record(step) {
      writes += 1;
      if (writes >= dieAt) throw new Error("the process was killed");
      steps.set(step.key, step);
    },
  };
}

async function run(items: unknown[], loopStart?: string, journal?: RunJournal, runId: string = randomUUID()) {
  const parsed = parseWorkflow(loopWorkflow(loopStart));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const env = await createLocalEnvironment({ nodesDir });
  expect(env.catalogue.problems.filter((problem) => /each-item|end-item/.test(problem.file))).toEqual([]);
  const sink = new MemorySink();
  const outcome = await runWorkflow({ runId, workflowId: null, workflow: parsed.workflow, input: { items }, sink, env, ...(journal ? { journal } : {}) });
  return { outcome, sink };
}

describe("a loop across nodes", () => {
  it("runs the body once per item and puts out what the passes collected", async () => {
    const { outcome, sink } = await run(["alpha", "beta", "gamma"]);
    expect(outcome).toMatchObject({ status: "completed", outputs: { result: { collected: ["ALPHA", "BETA", "GAMMA"], total: 3 } } });
    expect(sink.nodeStarts.filter((start) => start.nodeId === "each")).toHaveLength(3);
    expect(sink.nodeStarts.filter((start) => start.nodeId === "close").map((start) => start.inputs)).toEqual([{ input: "alpha" }, { input: "beta" }, { input: "gamma" }]);
  });

  it("a loop end that names no open loop fails the run with a message that says so", async () => {
    const { outcome } = await run(["alpha"], "nowhere");
    expect(outcome.status).toBe("failed");
    expect(JSON.stringify(outcome)).toContain("no loop 'nowhere' is open in this run");
  });

  it("a run killed after any write resumes with the loop where it was, to the same result", async () => {
    const baselineJournal = memoryJournal({ toolCall: () => {} });
    const baseline = await run(["alpha", "beta", "gamma"], undefined, baselineJournal);
    expect(baseline.outcome.status).toBe("completed");
    const writes = baselineJournal.steps.size;
    expect(writes).toBeGreaterThanOrEqual(6); // each and close, three times
    for (let dieAt = 1; dieAt <= writes; dieAt++) {
      const steps = new Map<string, RecordedStep>();
      const runId = `loop-${dieAt}`;
      const first = await run(["alpha", "beta", "gamma"], undefined, dyingJournal(steps, dieAt), runId);
      expect(first.outcome.status, `killed at write ${dieAt}`).toBe("interrupted");
      const resumed = await run(["alpha", "beta", "gamma"], undefined, dyingJournal(steps, Infinity), runId);
      expect(resumed.outcome, `killed at write ${dieAt}`).toMatchObject({ status: "completed", outputs: baseline.outcome.outputs });
    }
  });
});
