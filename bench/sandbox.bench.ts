/**
 * What running snippets in the worker pool costs beside running them on the
 * caller's thread (the path before issue 10), and beside a plain function.
 * Prints throughput and ratios; asserts nothing (timings belong here, not in
 * tests).
 *
 *   npx tsx bench/sandbox.bench.ts
 */
import { createSandbox, renderValue } from "../lib/sandbox";
import { moduleSupply } from "../lib/sandbox/module-supply";
import { runSnippet } from "../lib/sandbox/run-snippet";

const snippet = "return response.items.filter(i => i.ok).map(i => i.id)";
const scope = {
  response: { items: [{ id: 1, ok: true }, { id: 2, ok: false }, { id: 3, ok: true }] },
};
const limits = { timeoutMs: 1000, memoryBytes: 16 * 1024 * 1024 };

/** The baseline: the same expression as a plain host function. */
function plainCall(input: typeof scope): unknown {
  return input.response.items.filter((item) => item.ok).map((item) => item.id);
}

/** Runs `work` (awaited) for at least `milliseconds` after a warm-up; returns calls per millisecond. */
async function throughput(work: () => unknown, milliseconds: number): Promise<number> {
  for (let index = 0; index < 100; index++) await work();
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < milliseconds) {
    for (let index = 0; index < 20; index++) await work();
    calls += 20;
    elapsed = performance.now() - started;
  }
  return calls / elapsed;
}

/** `concurrency` evaluations in flight at once, as several runs would have. */
async function parallelThroughput(work: () => Promise<unknown>, concurrency: number, milliseconds: number): Promise<number> {
  let calls = 0;
  const started = performance.now();
  const lane = async () => {
    while (performance.now() - started < milliseconds) {
      await work();
      calls += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return calls / (performance.now() - started);
}

function format(perMillisecond: number): string {
  return `${perMillisecond.toFixed(3)} evaluations/ms (${(1000 / perMillisecond).toFixed(1)} µs each)`;
}

async function main(): Promise<void> {
  const sandbox = await createSandbox();
  const supply = await moduleSupply();
  const expected = JSON.stringify(plainCall(scope));
  const actual = JSON.stringify(await sandbox.evaluate(snippet, scope));
  if (actual !== expected) throw new Error(`the sandbox gave ${actual}, the baseline ${expected}`);
  const run = { body: snippet, names: ["response"], scopeJson: JSON.stringify(scope) };

  const inThread = await throughput(() => runSnippet(supply, run, limits), 2000);
  const pooled = await throughput(() => sandbox.evaluate(snippet, scope), 2000);
  const pooledParallel = await parallelThroughput(() => sandbox.evaluate(snippet, scope), 4, 2000);
  const plainTemplate = await throughput(() => renderValue("{{ response.items }}", scope, sandbox), 1000);
  const baseline = await throughput(() => plainCall(scope), 1000);
  console.log(`snippet:                       ${snippet}`);
  console.log(`in-thread (before issue 10):   ${format(inThread)}`);
  console.log(`worker pool, one at a time:    ${format(pooled)}`);
  console.log(`worker pool, 4 in flight:      ${format(pooledParallel)}`);
  console.log(`plain {{ path }} template:     ${format(plainTemplate)}  (never leaves the caller's thread)`);
  console.log(`plain function:                ${format(baseline)}`);
  console.log(`ratio in-thread / pool:            ${(inThread / pooled).toFixed(2)}  (the round trip's cost, one at a time)`);
  console.log(`ratio in-thread / pool (4 flight): ${(inThread / pooledParallel).toFixed(2)}`);
  console.log(`ratio plain template / pool:       ${(plainTemplate / pooled).toFixed(0)}`);
  sandbox.dispose();
  process.exit(0);
}

await main();
