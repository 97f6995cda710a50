/**
 * npm run workflow -- run FILE.json [--input JSON] [--json]
 *   Runs a workflow document in this process and prints its outcome; with
 *   --json: {runId, status, outputs, error, nodeRuns, toolCalls}. Exit 0 only when the run
 *   completed. It is `start` + `wait` with a worker of its own: the run is
 *   recorded in the app's database (migrated first when it is SQLite) with
 *   the same environment a worker builds (registered servers, stored
 *   credentials and their origins), so the app shows it at /runs/<id>.
 * npm run workflow -- start FILE.json|--workflow ID [--input JSON] [--json] | wait RUN_ID [--timeout S] | status RUN_ID | cancel RUN_ID
 *   The run queue: start writes a queued run and returns its id at once; a worker (`npm start`'s
 *   embedded one, or `npm run worker`) runs it. See scripts/workflow-queue.ts.
 * npm run workflow -- search-tools --tools FILE.json --query TEXT [--k 5] [--json]
 *   Shows which tools an agent would find for a job (see scripts/search-tools.ts).
 * npm run workflow -- diff RUN_A RUN_B [--json]
 *   Two runs recorded in the app's database, lined up step by step (see scripts/recorded-runs.ts).
 * npm run workflow -- fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]
 *   A recorded run forked at a step, queued (see scripts/recorded-runs.ts).
 * npm run workflow -- pin RUN_ID [--name NAME] [--out DIR] | test [PATH…] [--live-model] [--live-tools] [--junit FILE] [--json] [--parallel N]
 *   Recorded runs kept as test cases and run again from their cassettes (see scripts/workflow-tests.ts, docs/tests.md).
 * npm run workflow -- export-otel RUN_ID [--file OUT.json] [--capture-content]
 *   A recorded run as OpenTelemetry spans, OTLP/JSON (see scripts/recorded-runs.ts).
 * npm run workflow -- eval DATASET --workflow ID [--version V] [--json] [--window N] [--worker N]
 *   A dataset scored on a version of a workflow, every row a run through the queue (see scripts/workflow-eval.ts).
 */
import { workflowCommand } from "./workflow-command";

workflowCommand(process.argv.slice(2)).then((code) => process.exit(code));
