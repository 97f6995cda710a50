/**
 * A long agent loop through the AI SDK adapter (lib/ai/sdk-protocol.ts):
 * the adapter's own cost per tool call at 100, 1,000, 3,000 and 10,000
 * calls in one conversation, one call per turn, against a model double
 * that costs nothing (bench/fixtures/bench-model.ts). Linear means the
 * per-call cost stays flat: target within 1.5x of the 100-call figure.
 * Each size is the median of 3 runs in this process.
 *
 *   npx tsx bench/sdk-loop.bench.ts [--strict]   (--strict: exit 1 when the target is missed)
 */
import { performance } from "node:perf_hooks";
import { sdkProtocol } from "../lib/ai/sdk-protocol";
import type { ToolDefinition } from "../lib/ai/model";
import { benchModel } from "./fixtures/bench-model";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const sizes = [100, 1000, 3000, 10_000];
const tools: ToolDefinition[] = [{ name: "echo", description: "Echoes its input.", parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }];

/** Microseconds per call for one conversation of `calls` tool calls. */
async function perCall(calls: number): Promise<number> {
  const protocol = sdkProtocol({ label: "bench", model: benchModel({ calls, tool: "echo" }) });
  const conversation = await protocol.start({ instructions: "Be brief.", config: {}, inputs: { prompt: "Count." } });
  const started = performance.now();
  for (let made = 0; ; made++) {
    const turn = await conversation.turn(tools);
    if (turn.toolCalls.length === 0) break;
    conversation.addResults(turn, turn.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, output: `{"n":${made}}`, isError: false })));
  }
  return ((performance.now() - started) * 1000) / calls;
}

async function median(calls: number): Promise<number> {
  const samples = [];
  for (let round = 0; round < 3; round++) samples.push(await perCall(calls));
  return samples.sort((a, b) => a - b)[1];
}

for (let round = 0; round < 3; round++) await perCall(1000); // warm-up: the JIT settles before the first figure
const figures = new Map<number, number>();
for (const size of sizes) {
  figures.set(size, await median(size));
  console.log(`${`${size.toLocaleString("en-US")} calls`.padEnd(14)} ${figures.get(size)!.toFixed(1).padStart(8)} µs/call   ${(figures.get(size)! / figures.get(sizes[0])!).toFixed(2)}× the 100-call figure`);
}
const worst = Math.max(...sizes.map((size) => figures.get(size)! / figures.get(sizes[0])!));
console.log(`target: per-call cost within 1.5× from 100 to 10,000 calls ${worst <= 1.5 ? "met" : "MISSED"} (worst ${worst.toFixed(2)}×)`);
if (process.argv.includes("--strict") && worst > 1.5) process.exitCode = 1;
