/** The `npm run workflow` command (scripts/workflow.ts), as a function a test can call in its own process. */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { commandUser } from "./command-user";

// Each subcommand imports what it needs when it runs (`--help` loads nothing of the app).

const usage = [
  "usage: npm run workflow -- run FILE.json [--input JSON] [--json]",
  "       npm run workflow -- start FILE.json|--workflow ID [--input JSON] [--json] | wait RUN_ID [--timeout SECONDS] [--json] | status RUN_ID [--json] | cancel RUN_ID",
  "       npm run workflow -- approvals [--json] | approve CALL_ID [--arguments JSON] | deny CALL_ID --reason TEXT",
  "       npm run workflow -- search-tools --tools FILE.json --query TEXT [--k 5] [--json]",
  "       npm run workflow -- diff RUN_A RUN_B [--json] [--all]",
  "       npm run workflow -- fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]",
  "       npm run workflow -- export-otel RUN_ID [--file OUT.json] [--capture-content]",
  "       npm run workflow -- pin RUN_ID [--name NAME] [--out DIR] [--json]",
  "       npm run workflow -- test [PATH…] [--live-model] [--live-tools] [--junit FILE] [--json] [--parallel N] [--document FILE.json]",
  "       npm run workflow -- eval DATASET.jsonl|DATASET.csv --workflow ID [--version V] [--json] [--window N] [--worker N]",
].join("\n");

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(usage);
    return 0;
  }
  if (command === "search-tools") {
    // The node author's tool: the same ranking an agent's search_tools uses.
    const { runSearchTools } = (await import("./search-tools")) as { runSearchTools: (args: string[]) => Promise<number> };
    return runSearchTools(rest);
  }
  if (command === "approvals" || command === "approve" || command === "deny") {
    const { runApprovalCommand, ApprovalUsageError } = await import("./workflow-approvals");
    try {
      return await runApprovalCommand(command, rest);
    } catch (error) {
      if (error instanceof ApprovalUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (command === "start" || command === "wait" || command === "status" || command === "cancel") {
    const { runQueueCommand, QueueUsageError } = await import("./workflow-queue");
    try {
      return await runQueueCommand(command, rest);
    } catch (error) {
      if (error instanceof QueueUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (command === "diff" || command === "export-otel" || command === "fork") {
    const { RecordedRunsUsageError, runDiffCommand, runExportOtelCommand, runForkCommand } = await import("./recorded-runs");
    try {
      return await (command === "diff" ? runDiffCommand : command === "fork" ? runForkCommand : runExportOtelCommand)(rest);
    } catch (error) {
      if (error instanceof RecordedRunsUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (command === "pin" || command === "test") {
    const { runPinCommand, runTestCommand, TestsUsageError } = await import("./workflow-tests");
    try {
      return await (command === "pin" ? runPinCommand(rest) : runTestCommand(rest));
    } catch (error) {
      if (error instanceof TestsUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (command === "eval") {
    const { runEvalCommand, EvalUsageError } = await import("./workflow-eval");
    try {
      return await runEvalCommand(rest);
    } catch (error) {
      if (error instanceof EvalUsageError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (command !== "run") throw new UsageError(usage);
  const { values, positionals } = parseArgs({ args: rest, options: { input: { type: "string", default: "{}" }, json: { type: "boolean", default: false } }, allowPositionals: true });
  const file = positionals[0];
  if (!file) throw new UsageError(usage);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  const document = parseJson(text, file);
  const input = parseJson(values.input ?? "{}", "--input");
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new UsageError("--input must be a JSON object, e.g. '{\"question\": \"convert 5 kilometre to mile\"}'");
  const { parseWorkflow } = await import("../lib/graph");
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new UsageError(`${file} is not a workflow:\n${parsed.problems.map((problem) => `  ${problem.field ? `${problem.field}: ` : ""}${problem.message}`).join("\n")}`);
  // `start` + `wait` with a worker in this process: the same service, environment and journal as the app's runs.
  const { runInThisProcess } = await import("./workflow-run");
  const outcome = await runInThisProcess({ document: parsed.workflow, input: input as Record<string, unknown>, origin: { kind: "cli", by: commandUser() } });
  if ("refused" in outcome) throw new UsageError(outcome.refused);
  if (values.json) {
    console.log(JSON.stringify({ runId: outcome.runId, status: outcome.status, outputs: outcome.outputs, error: outcome.error, nodeRuns: outcome.nodeRuns, toolCalls: outcome.toolCalls }, null, 2));
  } else {
    for (const nodeRun of outcome.nodeRuns) {
      console.log(`${nodeRun.status.padEnd(10)} ${nodeRun.nodeId} (${nodeRun.nodeType})${nodeRun.error ? `: ${nodeRun.error}` : ""}`);
      for (const call of outcome.toolCalls.filter((row) => row.nodeRunId === nodeRun.nodeRunId)) {
        console.log(`    ${call.isError ? "✗" : "→"} ${call.server}/${call.tool} ${JSON.stringify(call.arguments)} ${call.durationMs} ms`);
      }
    }
    console.log(`run ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""} (${outcome.runId}; the app shows it at /runs/${outcome.runId})`);
    console.log(`result: ${JSON.stringify(outcome.outputs.result ?? null)}`);
  }
  return outcome.status === "completed" ? 0 : 1;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * `npm run workflow -- ARGV` (scripts/workflow.ts): prints what the command prints and answers its
 * exit code; a usage mistake or an internal error is one line and 2.
 */
export async function workflowCommand(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    console.error(error instanceof UsageError ? error.message : `workflow: internal error: ${(error as Error).message}`);
    return 2;
  }
}
