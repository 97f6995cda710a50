import { performance } from "node:perf_hooks";

/** Runs once to warm up, then `rounds` times; prints and returns the median in ms (and per item). */
export async function medianTime(label: string, items: number, run: () => Promise<unknown>, rounds = 5): Promise<number> {
  await run(); // warm-up: module loading and JIT are not what we measure
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  console.log(`${label.padEnd(34)} ${median.toFixed(1).padStart(8)} ms  ${(median / items).toFixed(3)} ms/node`);
  return median;
}
