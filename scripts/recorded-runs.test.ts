import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "../lib/db/demo-workflow";
import { PrismaRunSink } from "../lib/db/run-sink";
import { createTemporaryDatabase, type TemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { runWorkflow } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { parseWorkflow } from "../lib/graph";
import { readFileSync } from "node:fs";
import { decodeJsonTraces } from "../testing/trace/otlp-receiver.fixture";
import type { RunDiff } from "../lib/trace/run-diff";
import { type CommandResult, runCommandInProcess } from "../testing/scripts/command-in-process.fixture";
import { workflowCommand } from "./workflow-command";

let database: TemporaryDatabase;
const root = path.resolve(import.meta.dirname, "..");

/** Runs the demo workflow on the real engine (offline model, real unit-converter MCP server), recorded in the temporary database. */
async function recordDemoRun(runId: string, question: string): Promise<void> {
  const parsed = parseWorkflow(JSON.parse(JSON.stringify(demoWorkflow.document)));
  if (!parsed.ok) throw new Error("the demo does not parse");
  const outcome = await runWorkflow({
    runId, workflowId: null, workflow: parsed.workflow, input: { question },
    sink: new PrismaRunSink(database.client, { document: parsed.workflow }), env: await createLocalEnvironment({ nodesDir: path.join(root, "nodes") }),
  });
  expect(outcome.status).toBe("completed");
}

beforeAll(async () => {
  database = await createTemporaryDatabase();
  await recordDemoRun("run-marathon", "Convert 26.2 mile to kilometre");
  await recordDemoRun("run-short", "Convert 5 kilometre to mile");
  await recordDemoRun("run-marathon-again", "Convert 26.2 mile to kilometre");
}, 60_000);
afterAll(async () => database?.dispose());

/** `npm run workflow -- ARGS` against the temporary database, called in this process (scripts/workflow-run.test.ts starts the command as a process). */
function workflow(...args: string[]): Promise<CommandResult> {
  return runCommandInProcess(workflowCommand, args, { DATABASE_URL: database.url });
}

describe("npm run workflow -- diff", () => {
  it("lines up two recorded runs and names the first divergence (--json)", async () => {
    const result = await workflow("diff", "run-marathon", "run-short", "--json");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const diff = JSON.parse(result.stdout) as RunDiff;
    expect(diff.pairs.map((pair) => pair.key)).toEqual(["start#1", "agent#1", "agent#1/call 1", "end#1"]);
    expect(diff.pairs[diff.firstDivergence!].key).toBe("start#1");
    const call = diff.pairs.find((pair) => pair.key === "agent#1/call 1")!;
    expect(call.fields.find((field) => field.field === "arguments")?.changes).toContainEqual({ kind: "changed", path: "value", before: 26.2, after: 5 });
    expect(diff.a.totals).toMatchObject({ toolCalls: 1, turns: 2 });
  }, 180_000);

  it("prints a readable diff and exits 0 for runs that agree", async () => {
    const result = await workflow("diff", "run-marathon", "run-marathon-again");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("the runs agree step for step");
    expect(result.stdout).toMatch(/= {3}agent#1\/call 1 {2}call converter\/convertUnits/);
  }, 180_000);

  it("refuses an unknown run and the same run twice in one line, exit 2", async () => {
    expect(await workflow("diff", "run-marathon", "no-such-run")).toMatchObject({ code: 2, stdout: "", stderr: 'diff: There is no run "no-such-run".\n' });
    expect(await workflow("diff", "run-short", "run-short")).toMatchObject({ code: 2, stderr: 'diff: Both sides are run "run-short": choose another run to compare it with.\n' });
    expect(await workflow("diff", "run-short")).toMatchObject({ code: 2, stderr: "usage: npm run workflow -- diff RUN_A RUN_B [--json] [--all]\n" });
  }, 180_000);
});

describe("npm run workflow -- export-otel", () => {
  it("writes a recorded run as OTLP/JSON spans, without content unless asked", async () => {
    const result = await workflow("export-otel", "run-marathon", "--file", path.join(database.folder, "out.json"));
    expect(result).toMatchObject({ code: 0, stderr: "" });
    // The four steps, the run, and the wait of the run in the queue before its worker took it.
    expect(result.stdout).toContain("wrote 6 spans of run run-marathon");
    const spans = decodeJsonTraces(JSON.parse(readFileSync(path.join(database.folder, "out.json"), "utf8")));
    const root = spans.find((span) => span.parentSpanId === null)!;
    expect(root.name).toBe("invoke_workflow Demo: unit conversion agent");
    const agent = spans.find((span) => span.name === "invoke_agent agent")!;
    expect(agent.parentSpanId).toBe(root.spanId);
    expect(spans.find((span) => span.name === "execute_tool convertUnits")).toMatchObject({ parentSpanId: agent.spanId, attributes: { "gen_ai.tool.name": "convertUnits", "switchboard.tool.server": "converter" } });
    expect(spans.map((span) => span.name).sort()).toEqual(["execute_tool convertUnits", "invoke_agent agent", "invoke_workflow Demo: unit conversion agent", "run_node end", "run_node start", "wait queue"]);
    expect(readFileSync(path.join(database.folder, "out.json"), "utf8")).not.toContain("26.2");

    const withContent = await workflow("export-otel", "run-marathon", "--capture-content");
    const call = decodeJsonTraces(JSON.parse(withContent.stdout)).find((span) => span.name === "execute_tool convertUnits")!;
    expect(JSON.parse(call.attributes["gen_ai.tool.call.arguments"] as string)).toMatchObject({ value: 26.2, from: "mile" });
  }, 180_000);

  it("refuses an unknown run and a run still running, exit 2", async () => {
    await database.client.run.create({ data: { id: "run-running", document: "{}", status: "running" } });
    expect(await workflow("export-otel", "no-such-run")).toMatchObject({ code: 2, stderr: 'export-otel: There is no run "no-such-run".\n' });
    expect(await workflow("export-otel", "run-running")).toMatchObject({ code: 2, stderr: 'export-otel: run "run-running" is still running; export it once it has ended.\n' });
  }, 180_000);
});
