import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "../lib/db/demo-workflow";
import { PrismaRunSink } from "../lib/db/run-sink";
import { createTemporaryDatabase, type TemporaryDatabase } from "../lib/db/temporary-database";
import { createLocalEnvironment, runWorkflow } from "../lib/engine";
import { parseWorkflow } from "../lib/graph";
import type { RunDiff } from "../lib/trace/run-diff";

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

/** `npm run workflow -- ARGS` as a child, against the temporary database. */
function workflow(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "workflow.ts"), ...args], { cwd: root, env: { ...process.env, DATABASE_URL: database.url } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
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
  }, 90_000);

  it("prints a readable diff and exits 0 for runs that agree", async () => {
    const result = await workflow("diff", "run-marathon", "run-marathon-again");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("the runs agree step for step");
    expect(result.stdout).toMatch(/= {3}agent#1\/call 1 {2}call converter\/convertUnits/);
  }, 90_000);

  it("refuses an unknown run and the same run twice in one line, exit 2", async () => {
    expect(await workflow("diff", "run-marathon", "no-such-run")).toMatchObject({ code: 2, stdout: "", stderr: 'diff: There is no run "no-such-run".\n' });
    expect(await workflow("diff", "run-short", "run-short")).toMatchObject({ code: 2, stderr: 'diff: Both sides are run "run-short": choose another run to compare it with.\n' });
    expect(await workflow("diff", "run-short")).toMatchObject({ code: 2, stderr: "usage: npm run workflow -- diff RUN_A RUN_B [--json]\n" });
  }, 90_000);
});
