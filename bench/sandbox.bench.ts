/**
 * How much a sandboxed `return` expression costs beside the same work done
 * by a plain function in this process. Prints throughput for both and their
 * ratio; asserts nothing (timings belong here, not in tests).
 *
 *   npx tsx bench/sandbox.bench.ts
 */
import { createSandbox } from "../lib/sandbox";

const snippet = "return response.items.filter(i => i.ok).map(i => i.id)";
const scope = {
  response: { items: [{ id: 1, ok: true }, { id: 2, ok: false }, { id: 3, ok: true }] },
};

/** The baseline: the same expression as a plain host function. */
function plainCall(input: typeof scope): unknown {
  return input.response.items.filter((item) => item.ok).map((item) => item.id);
}

/** The baseline plus the JSON copies in and out that the sandbox makes. */
function plainCallWithJson(input: typeof scope): unknown {
  return JSON.parse(JSON.stringify(plainCall(JSON.parse(JSON.stringify(input)) as typeof scope)));
}

/** Runs `work` for at least `milliseconds` after a warm-up; returns calls per millisecond. */
function throughput(work: () => unknown, milliseconds: number): number {
  for (let index = 0; index < 200; index++) work();
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < milliseconds) {
    for (let index = 0; index < 50; index++) work();
    calls += 50;
    elapsed = performance.now() - started;
  }
  return calls / elapsed;
}

function format(perMillisecond: number): string {
  return `${perMillisecond.toFixed(2)} evaluations/ms (${(1000 / perMillisecond).toFixed(2)} µs each)`;
}

async function main(): Promise<void> {
  const sandbox = await createSandbox();
  const expected = JSON.stringify(plainCall(scope));
  const actual = JSON.stringify(sandbox.evaluate(snippet, scope));
  if (actual !== expected) throw new Error(`the sandbox gave ${actual}, the baseline ${expected}`);

  const sandboxed = throughput(() => sandbox.evaluate(snippet, scope), 2000);
  const baseline = throughput(() => plainCall(scope), 1000);
  const baselineWithJson = throughput(() => plainCallWithJson(scope), 1000);
  console.log(`snippet:            ${snippet}`);
  console.log(`sandbox:            ${format(sandboxed)}`);
  console.log(`baseline:           ${format(baseline)}  (plain function call)`);
  console.log(`baseline with JSON: ${format(baselineWithJson)}  (plus the JSON copies in and out)`);
  console.log(`ratio:              baseline / sandbox = ${(baseline / sandboxed).toFixed(0)}`);
  console.log(`ratio with JSON:    baseline with JSON / sandbox = ${(baselineWithJson / sandboxed).toFixed(0)}`);
  sandbox.dispose();
}

await main();
