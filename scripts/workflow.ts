/**
 * npm run workflow -- run FILE.json [--input JSON] [--json]
 *   Runs a workflow document on this machine and prints its outcome; with
 *   --json: {status, outputs, nodeRuns, toolCalls}. Exit 0 only when the run completed.
 *   Agents' `{ mcp: "server-id" }` tools reach the servers registered in the
 *   app's database (`npm run servers`), when there is one.
 * npm run workflow -- start FILE.json|--workflow ID [--input JSON] [--json] | wait RUN_ID [--timeout S] | status RUN_ID | cancel RUN_ID
 *   The run queue: start writes a queued run and returns its id at once; a worker (`npm start`'s
 *   embedded one, or `npm run worker`) runs it. See scripts/workflow-queue.ts.
 * npm run workflow -- search-tools --tools FILE.json --query TEXT [--k 5] [--json]
 *   Shows which tools an agent would find for a job (see scripts/search-tools.ts).
 * npm run workflow -- diff RUN_A RUN_B [--json]
 *   Two runs recorded in the app's database, lined up step by step (see scripts/recorded-runs.ts).
 * npm run workflow -- fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]
 *   A recorded run forked at a step, queued (see scripts/recorded-runs.ts).
 * npm run workflow -- export-otel RUN_ID [--file OUT.json] [--capture-content]
 *   A recorded run as OpenTelemetry spans, OTLP/JSON (see scripts/recorded-runs.ts).
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPrismaClient } from "../lib/db/create-client";
import { databaseUrl } from "../lib/db/database-url";
import { PrismaServerRegistry } from "../lib/db/servers";
import { PrismaOAuthStateStore } from "../lib/db/server-oauth";
import { createLocalEnvironment, type EngineEnvironment, runWorkflow } from "../lib/engine";
import { ConnectionManager } from "../lib/mcp/connection-manager";
import { parseWorkflow } from "../lib/graph";
import { MemorySink } from "../lib/trace/memory-sink";
import { flushOtelExport, withOtelExport } from "../lib/trace/otel/live-export";
import { RecordedRunsUsageError, runDiffCommand, runExportOtelCommand, runForkCommand } from "./recorded-runs";

const usage = [
  "usage: npm run workflow -- run FILE.json [--input JSON] [--json]",
  "       npm run workflow -- start FILE.json|--workflow ID [--input JSON] [--json] | wait RUN_ID [--timeout SECONDS] [--json] | status RUN_ID [--json] | cancel RUN_ID",
  "       npm run workflow -- approvals [--json] | approve CALL_ID [--arguments JSON] | deny CALL_ID --reason TEXT",
  "       npm run workflow -- search-tools --tools FILE.json --query TEXT [--k 5] [--json]",
  "       npm run workflow -- diff RUN_A RUN_B [--json] [--all]",
  "       npm run workflow -- fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]",
  "       npm run workflow -- export-otel RUN_ID [--file OUT.json] [--capture-content]",
].join("\n");

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
  if (command === "diff") return runDiffCommand(rest);
  if (command === "export-otel") return runExportOtelCommand(rest);
  if (command === "fork") return runForkCommand(rest);
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
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new UsageError(`${file} is not a workflow:\n${parsed.problems.map((problem) => `  ${problem.field ? `${problem.field}: ` : ""}${problem.message}`).join("\n")}`);
  const sink = new MemorySink();
  const env = await createLocalEnvironment({ overrides: registeredServers() });
  // Exported live as OpenTelemetry spans when OTEL_EXPORTER_OTLP_ENDPOINT is set; sent before the command exits.
  const exported = withOtelExport(sink, { workflowName: parsed.workflow.name });
  const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow: parsed.workflow, input: input as Record<string, unknown>, sink: exported, env });
  await flushOtelExport().catch((error: unknown) => console.error(`OpenTelemetry: the spans could not be sent: ${(error as Error).message}`));
  if (values.json) {
    const nodeRuns = sink.nodeStarts.map((start) => ({ ...start, ...sink.nodeEnds.find((end) => end.nodeRunId === start.nodeRunId) }));
    console.log(JSON.stringify({ status: outcome.status, outputs: outcome.outputs, error: outcome.error, nodeRuns, toolCalls: sink.toolCalls }, null, 2));
  } else {
    for (const start of sink.nodeStarts) {
      const end = sink.nodeEnds.find((candidate) => candidate.nodeRunId === start.nodeRunId);
      console.log(`${(end?.status ?? "running").padEnd(10)} ${start.nodeId} (${start.nodeType})${end?.error ? `: ${end.error}` : ""}`);
      for (const call of sink.toolCalls.filter((row) => row.nodeRunId === start.nodeRunId)) {
        console.log(`    ${call.isError ? "✗" : "→"} ${call.server}/${call.tool} ${JSON.stringify(call.arguments)} ${call.durationMs} ms`);
      }
    }
    console.log(`run ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""}`);
    console.log(`result: ${JSON.stringify(outcome.outputs.result ?? null)}`);
  }
  return outcome.status === "completed" ? 0 : 1;
}

/** The app's registered MCP servers behind a connection manager, when the app's database exists; closed by the engine at the run's end. */
function registeredServers(): Partial<EngineEnvironment> {
  const url = databaseUrl();
  if (url.startsWith("file:") && !existsSync(path.resolve(url.slice("file:".length)))) return {};
  const client = createPrismaClient(url);
  const manager = new ConnectionManager(new PrismaServerRegistry(client), {
    oauthStore: new PrismaOAuthStateStore(client),
    onProblem: (problem) => console.error(problem.tool ? `MCP server '${problem.serverId}': ${problem.message}` : problem.message),
  });
  return {
    mcpTools: manager,
    dispose: async () => {
      await manager.closeAll();
      await client.$disconnect();
    },
  };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError || error instanceof RecordedRunsUsageError ? error.message : `workflow: internal error: ${(error as Error).message}`);
    process.exit(2);
  },
);
