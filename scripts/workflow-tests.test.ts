import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { demoWorkflow } from "../lib/db/demo-workflow";
import { openSqlDatabase } from "../lib/db/sql/open-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../testing/db/temporary-database.fixture";
import type { TestCase } from "../lib/evals/test-case";
import { RunService, runNodeTypes, startWorkerRuntime } from "../lib/runs";
import { type CommandResult, runCommandInProcess } from "../testing/scripts/command-in-process.fixture";
import { workflowCommand } from "./workflow-command";

const root = path.resolve(import.meta.dirname, "..");
let database: TemporaryDatabase;
let sql: SqlDatabase;
let casesFolder: string;
let caseFile: string;

/** `npm run workflow -- ARGS` against the temporary database, called in this process (scripts/workflow-run.test.ts starts the command as a process). */
function workflow(...args: string[]): Promise<CommandResult> {
  return runCommandInProcess(workflowCommand, args, { DATABASE_URL: database.url, SWITCHBOARD_POLL_MS: "20" });
}

/** The saved demo's current document, as the editor would save it. */
async function saveDemoDocument(edit: (document: typeof demoWorkflow.document) => void): Promise<void> {
  const document = structuredClone(demoWorkflow.document);
  edit(document);
  await database.client.workflow.update({ where: { id: "demo" }, data: { document: JSON.stringify(document) } });
}

beforeAll(async () => {
  database = await createTemporaryDatabase();
  casesFolder = path.join(database.folder, "cases");
  await database.client.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  // The recorded run: the saved demo, run by a worker like any other.
  sql = openSqlDatabase(database.url);
  const service = new RunService({ db: sql, nodeTypes: () => runNodeTypes(), wake: () => undefined });
  const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question: "convert 26.2 mile to kilometre" }, origin: { kind: "cli" } });
  if (!started.ok) throw new Error(started.error);
  const worker = startWorkerRuntime({ databaseUrl: database.url, onlyRuns: [started.runId], ticksSchedules: false, webhook: null, timings: { leaseMs: 10_000, heartbeatMs: 500, pollMs: 20 } });
  expect((await service.wait(started.runId, { timeoutMs: 60_000 }))?.status).toBe("completed");
  await worker.stop();
  const pinned = await workflow("pin", started.runId, "--name", "Marathon in km", "--out", casesFolder);
  expect(pinned).toMatchObject({ code: 0, stderr: "" });
  expect(pinned.stdout).toContain('("Marathon in km": 2 model turns, 1 tool calls)');
  caseFile = path.join(casesFolder, readdirSync(casesFolder)[0]);
  expect(path.basename(caseFile)).toBe("marathon-in-km.case.json");
}, 240_000);

afterAll(async () => {
  await sql?.close();
  await database?.dispose();
});

describe("npm run workflow -- test", () => {
  it("passes the pinned case and writes a JUnit report that validates", async () => {
    const report = path.join(database.folder, "junit.xml");
    const result = await workflow("test", casesFolder, "--junit", report);
    expect(result.stdout).toMatch(/✓ Marathon in km \(.*marathon-in-km\.case\.json\) \d+ ms/);
    expect(result.stdout).toContain("1 passed, 0 failed");
    expect(result.code).toBe(0);
    const schema = readFileSync(path.join(root, "testing", "evals", "junit.fixture.xsd"), "utf8");
    const validation = await validateXML({ xml: { fileName: "junit.xml", contents: readFileSync(report, "utf8") }, schema: { fileName: "junit.xsd", contents: schema } });
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
  }, 180_000);

  it("fails after the system prompt is edited, with the diff naming the first divergent step; passes once that field is loosened", async () => {
    await saveDemoDocument((document) => {
      (document.nodes.find((node) => node.id === "agent")!.config as Record<string, unknown>).systemPrompt = "You convert units, tersely.";
    });
    const failed = await workflow("test", caseFile);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('agent: model turn agent#1/t1 was asked differently than when it was recorded: system: expected "You are a helpful assistant.", got "You convert units, tersely."');
    expect(failed.stdout).toContain("first divergence: agent#1/turn 1");
    expect(failed.stdout).toMatch(/− {3}agent#1\/call 1 {2}call converter\/convertUnits {2}\(only in a\)/);
    expect(failed.stdout).toContain("0 passed, 1 failed");

    const loosened = JSON.parse(readFileSync(caseFile, "utf8")) as TestCase;
    loosened.assertions.modelRequests = [{ step: "agent", scorers: [{ kind: "contains", path: "system", value: "units" }] }];
    const loosenedFile = path.join(database.folder, "loosened.case.json");
    writeFileSync(loosenedFile, JSON.stringify(loosened, null, 2));
    const passed = await workflow("test", loosenedFile, "--json");
    expect(passed.code).toBe(0);
    expect(JSON.parse(passed.stdout)).toMatchObject([{ name: "Marathon in km", pass: true, failures: [], firstDivergence: null }]);
    await saveDemoDocument(() => undefined);
  }, 240_000);

  it("refuses a malformed case file with file:line, exit 2, running nothing", async () => {
    const broken = path.join(database.folder, "broken.case.json");
    writeFileSync(broken, readFileSync(caseFile, "utf8").replace('"kind": "exact"', '"kind": "fuzzy"'));
    const line = readFileSync(broken, "utf8").split("\n").findIndex((row) => row.includes('"fuzzy"')) + 1;
    const result = await workflow("test", broken);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`${broken}:${line}: assertions.outputs[0].kind: kind must be one of exact, contains, regex, number, schema, ignore, judge (got "fuzzy")\n`);
  }, 120_000);
});
