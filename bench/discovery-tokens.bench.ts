/**
 * Tokens a whole job spends with progressive discovery, beside the same job
 * with every tool offered: three tool uses over 300 tools, through the
 * platform's turn loop and the AI SDK adapter, against a model double that
 * follows a script. Tokens are estimated the way the engine decides on
 * discovery (JSON characters / 4) over everything each request sends: the
 * conversation and the tool definitions. Target: at least 95% fewer.
 *
 *   npx tsx bench/discovery-tokens.bench.ts [--strict]   (--strict: exit 1 when the target is missed)
 */
import { sdkProtocol } from "../lib/ai/sdk-protocol";
import { recordingModel, type RecordedStep } from "../testing/ai/recording-model.fixture";
import { runAgentLoop } from "../lib/engine/agent/agent-loop";
import { rankWithToolIndex } from "../lib/engine/local-environment";
import { threeHundredTools } from "../testing/engine/three-hundred-tools.fixture";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const tools = threeHundredTools();
/** The job: three tools, each found by a search in other words. */
const uses = [
  { name: "create_issue", query: "open a new issue in a repository", arguments: { repo: "acme/app", title: "Crash on start" } },
  { name: "add_issue_comment", query: "comment on an existing issue", arguments: { repo: "acme/app", number: 1, body: "Seen it too." } },
  { name: "create_pull_request", query: "open a pull request from a branch", arguments: { repo: "acme/app", head: "fix", base: "main", title: "Fix crash" } },
];

async function spend(script: RecordedStep[], discoveryThreshold: number) {
  const recorded = recordingModel(script);
  const conversation = await sdkProtocol({ label: "bench", model: recorded.model, systemPrompt: "You work on the acme/app repository." }).start({ instructions: "", config: {}, inputs: { prompt: "File the crash, comment on it, and open the fix." } });
  const result = await runAgentLoop({ conversation, tools, maxTurns: 12, stuckAfterRepeats: 3, nodeRunId: "bench", callerNodeId: "agent", rank: rankWithToolIndex(tools), discoveryThreshold, recordPlatformCall: () => undefined });
  const tokens = recorded.prompts.reduce((sum, prompt, index) => sum + Math.ceil(JSON.stringify({ prompt, tools: recorded.toolLists[index] }).length / 4), 0);
  return { tokens, requests: recorded.prompts.length, result };
}

const direct = await spend([...uses.map((use, index) => ({ calls: [{ id: `d${index}`, name: use.name, input: JSON.stringify(use.arguments) }] })), { text: "Done." }], Number.POSITIVE_INFINITY);
const discovered = await spend(
  [
    ...uses.flatMap((use, index) => [
      { calls: [{ id: `s${index}`, name: "search_tools", input: JSON.stringify({ query: use.query }) }] },
      { calls: [{ id: `c${index}`, name: "call_tool", input: JSON.stringify({ name: use.name, arguments: use.arguments }) }] },
    ]),
    { text: "Done." },
  ],
  2000,
);
for (const [label, run] of [["every tool offered", direct], ["progressive discovery", discovered]] as const) {
  console.log(`${label.padEnd(24)} ${run.requests} requests  ${run.tokens.toLocaleString("en-US").padStart(9)} tokens  (${run.result.toolCalls} calls, ${run.result.status}, discovery ${run.result.discovery})`);
}
const saved = 1 - discovered.tokens / direct.tokens;
console.log(`discovery spends ${(saved * 100).toFixed(1)}% fewer tokens for the whole job (target at least 95%)`);
if (process.argv.includes("--strict") && saved < 0.95) process.exitCode = 1;
