/**
 * The fixed cost of a run: building the run's environment
 * (createLocalEnvironment: node types, lint and protocols of nodes/) and
 * running a Start → End workflow, beside a whole one-call AI SDK agent
 * conversation (the AI SDK adapter over a model double, one tool call,
 * through the platform's turn loop) in the same process. Target: under 2x.
 * The environment is cached per version of nodes/ (lib/manifest/
 * catalogue-cache.ts); the cost of reading nodes/ anew is printed beside.
 *
 *   npx tsx bench/run-fixed-cost.bench.ts [--strict]   (--strict: exit 1 when the target is missed)
 */
import { performance } from "node:perf_hooks";
import path from "node:path";
import { catalogueNodeTypes, parseWorkflow } from "../lib/graph";
import { lintNodes } from "../lib/manifest";
import { runWorkflow } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { sdkProtocol } from "../lib/ai/sdk-protocol";
import { driveAgent, fakeTools } from "../testing/ai/drive-agent.fixture";
import { MemorySink } from "../lib/trace/memory-sink";
import { benchModel } from "./fixtures/bench-model";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const rounds = 200;
const nodesDir = path.resolve(import.meta.dirname, "../nodes");
const parsed = parseWorkflow({
  version: 1,
  name: "fixed cost",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "end", type: "end", position: { x: 200, y: 0 }, config: {} },
  ],
  edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "end", targetHandle: "result" }],
});
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const workflow = parsed.workflow;

async function timePerRound(label: string, work: () => Promise<unknown>, count = rounds): Promise<number> {
  for (let index = 0; index < 20; index++) await work(); // warm-up
  const samples: number[] = [];
  for (let sample = 0; sample < 3; sample++) {
    const started = performance.now();
    for (let index = 0; index < count; index++) await work();
    samples.push((performance.now() - started) / count);
  }
  const median = samples.sort((a, b) => a - b)[1];
  console.log(`${label.padEnd(60)} ${median.toFixed(3).padStart(9)} ms`);
  return median;
}

const { tools } = fakeTools({ echo: { answer: () => ({ output: '{"ok":true}' }) } });
const baseline = await timePerRound("baseline: one-call AI SDK agent conversation", () =>
  driveAgent({ protocol: sdkProtocol({ label: "bench", model: benchModel({ calls: 1, tool: "echo" }) }), tools, inputs: { prompt: "Echo." } }),
);
const fixed = await timePerRound("a run's fixed cost: environment + Start → End run", async () => {
  const env = await createLocalEnvironment({ nodesDir });
  return runWorkflow({ runId: "bench", workflowId: null, workflow, input: { question: "q" }, sink: new MemorySink(), env });
});
const uncached = await timePerRound("for comparison: reading, linting nodes/ and its node types anew", async () => catalogueNodeTypes(await lintNodes(nodesDir)), 20);
const ratio = fixed / baseline;
console.log(`fixed cost of a run: ${ratio.toFixed(2)}× a one-call AI SDK run (target < 2; reading nodes/ anew alone: ${(uncached / baseline).toFixed(1)}×)`);
if (process.argv.includes("--strict") && ratio >= 2) process.exitCode = 1;
