import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { demoWorkflow } from "@/lib/db/demo-workflow";
import { openSqlDatabase } from "@/lib/db/sql/open-database";
import { parseTestCase } from "@/lib/evals/test-case";
import { RunService, runNodeTypes, startWorkerRuntime } from "@/lib/runs";
import type { Role } from "@/lib/auth/roles";

// TEST DOUBLE for the request: the cookie jar of the person acting.
const jar = { value: undefined as string | undefined };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "switchboard_session" && jar.value ? { name, value: jar.value } : undefined), set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({ redirect: (to: string) => { throw Object.assign(new Error(`redirect ${to}`), { redirectedTo: to }); } }));

const database = temporaryAppDatabase();
const cookies = new Map<Role, string>();
const casesFolder = mkdtempSync(path.join(os.tmpdir(), "switchboard-kept-cases-"));
let keep: typeof import("./test-cases").keepRunAsTestCase;
let test: typeof import("./test-cases").testWorkflowDocument;
let edit: typeof import("./test-cases").editTestCase;
let runId: string;

beforeAll(async () => {
  process.env.SWITCHBOARD_CASES_DIR = casesFolder;
  const { startSession } = await import("@/lib/auth/sessions");
  const store = new PrismaAccounts(database.client);
  for (const role of ["viewer", "runner", "editor"] as const) {
    const person = await store.createUser({ email: `${role}@example.test`, role, passwordHash: "scrypt$unused" });
    cookies.set(role, (await startSession(person!.id)).value);
  }
  await database.client.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  const sql = openSqlDatabase(database.url);
  const service = new RunService({ db: sql, nodeTypes: () => runNodeTypes(), wake: () => undefined });
  const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question: "convert 3 metre to foot" }, origin: { kind: "canvas", by: "editor@example.test" } });
  if (!started.ok) throw new Error(started.error);
  runId = started.runId;
  const worker = startWorkerRuntime({ databaseUrl: database.url, onlyRuns: [runId], ticksSchedules: false, webhook: null, timings: { leaseMs: 10_000, heartbeatMs: 500, pollMs: 20 } });
  await service.wait(runId, { timeoutMs: 60_000 });
  await worker.stop();
  await sql.close();
  ({ keepRunAsTestCase: keep, testWorkflowDocument: test, editTestCase: edit } = await import("./test-cases"));
}, 120_000);

afterAll(() => {
  delete process.env.SWITCHBOARD_CASES_DIR;
  rmSync(casesFolder, { recursive: true, force: true });
});

describe("Keep as test (the run page's server action)", () => {
  it("is refused below editor, and writes nothing", async () => {
    jar.value = cookies.get("runner");
    await expect(keep(runId)).rejects.toMatchObject({ name: "AccessRefused", status: 403 });
  });

  it("writes an editor's case to SWITCHBOARD_CASES_DIR and answers its text for the download", async () => {
    jar.value = cookies.get("editor");
    const kept = await keep(runId, "3 m in feet");
    if (!kept.ok) throw new Error(kept.error);
    expect(kept.fileName).toBe("3-m-in-feet.case.json");
    const written = readFileSync(path.join(casesFolder, kept.fileName), "utf8");
    expect(written).toBe(kept.text);
    expect(parseTestCase(written, kept.fileName)).toMatchObject({ name: "3 m in feet", workflow: { id: "demo" }, pinnedFrom: { runId }, input: { question: "convert 3 metre to foot" } });
    // Kept again: a second file, never over the first.
    expect(await keep(runId, "3 m in feet")).toMatchObject({ ok: true, fileName: "3-m-in-feet-2.case.json" });
  }, 60_000);

  it("refuses an unknown run, naming the field", async () => {
    jar.value = cookies.get("editor");
    expect(await keep("no-such-run")).toEqual({ ok: false, error: 'There is no run "no-such-run".', field: "runId" });
  });
});

describe("Test (the editor's server action): the workflow's cases against the unsaved document", () => {
  const edited = () => ({ ...demoWorkflow.document, nodes: demoWorkflow.document.nodes.map((node) => (node.id === "agent" ? { ...node, config: { ...node.config, systemPrompt: "You convert units, tersely." } } : node)) });

  it("is refused below runner", async () => {
    jar.value = cookies.get("viewer");
    await expect(test("demo", demoWorkflow.document)).rejects.toMatchObject({ name: "AccessRefused", status: 403 });
  });

  it("says so when the workflow has no cases, pointing at Keep as test", async () => {
    jar.value = cookies.get("runner");
    expect(await test("no-cases-here", demoWorkflow.document)).toMatchObject({ ok: false, noCases: true, error: expect.stringContaining('"Keep as test"') });
  });

  it("refuses a document that is not a workflow, naming the field", async () => {
    jar.value = cookies.get("runner");
    expect(await test("demo", { nodes: "no" })).toMatchObject({ ok: false, field: "document" });
  });

  it("passes the unchanged document, and fails an edited system prompt at the agent's first turn", async () => {
    jar.value = cookies.get("runner");
    const same = await test("demo", demoWorkflow.document);
    if (!same.ok) throw new Error(same.error);
    expect(same.outcomes.length).toBeGreaterThan(0);
    expect(same).toMatchObject({ failed: 0, passed: same.outcomes.length });
    const changed = await test("demo", edited());
    if (!changed.ok) throw new Error(changed.error);
    expect(changed.passed).toBe(0);
    expect(changed.outcomes[0]).toMatchObject({ pass: false, node: "agent", firstDivergence: expect.stringMatching(/^agent#1\//) });
    expect(changed.outcomes[0].failures[0]).toMatch(/^first divergence: agent#1\//);
  }, 120_000);

  it("passes again once the case editor loosens the system prompt of the agent's requests", async () => {
    jar.value = cookies.get("editor");
    const loosened = await edit("3-m-in-feet.case.json", { target: "modelRequest", step: "agent" }, { kind: "regex", path: "system", pattern: "units" });
    if (!loosened.ok) throw new Error(loosened.error);
    expect(parseTestCase(readFileSync(path.join(casesFolder, "3-m-in-feet.case.json"), "utf8"), "x").assertions.modelRequests).toEqual([{ step: "agent", scorers: [{ kind: "regex", path: "system", pattern: "units" }] }]);
    jar.value = cookies.get("runner");
    const result = await test("demo", edited());
    if (!result.ok) throw new Error(result.error);
    expect(result.outcomes.find((outcome) => outcome.fileName === "3-m-in-feet.case.json")).toMatchObject({ pass: true });
    expect(result.outcomes.find((outcome) => outcome.fileName === "3-m-in-feet-2.case.json")).toMatchObject({ pass: false, node: "agent" });
  }, 120_000);
});

describe("the case editor (the run page's server action)", () => {
  it("is refused below editor", async () => {
    jar.value = cookies.get("runner");
    await expect(edit("3-m-in-feet-2.case.json", { target: "outputs" }, { kind: "ignore", path: "result" })).rejects.toMatchObject({ name: "AccessRefused", status: 403 });
  });

  it("refuses a bad scorer naming its field, and leaves the file as it was", async () => {
    jar.value = cookies.get("editor");
    const file = path.join(casesFolder, "3-m-in-feet-2.case.json");
    const before = readFileSync(file, "utf8");
    expect(await edit("3-m-in-feet-2.case.json", { target: "outputs" }, { kind: "regex", path: "result" })).toMatchObject({ ok: false, field: "assertions.outputs[1].pattern", error: expect.stringContaining("pattern") });
    expect(await edit("3-m-in-feet-2.case.json", { target: "modelRequest", step: "agent" }, { kind: "judge", rubric: "r", threshold: 0.5 })).toMatchObject({ ok: false, field: expect.stringContaining("modelRequests") });
    expect(await edit("3-m-in-feet-2.case.json", { target: "toolCall", key: "nope" }, { kind: "exact" })).toMatchObject({ ok: false, field: "key" });
    expect(await edit("../escape.case.json", { target: "outputs" }, { kind: "exact" })).toMatchObject({ ok: false, field: "fileName" });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("adds a judge of the outputs and a tolerance on a tool call's argument", async () => {
    jar.value = cookies.get("editor");
    const kept = parseTestCase(readFileSync(path.join(casesFolder, "3-m-in-feet-2.case.json"), "utf8"), "x");
    const key = kept.assertions.toolCalls[0].key;
    expect(await edit("3-m-in-feet-2.case.json", { target: "outputs" }, { kind: "judge", rubric: "Gives the answer in feet.", threshold: 0.7, modelNode: "agent" })).toMatchObject({ ok: true });
    expect(await edit("3-m-in-feet-2.case.json", { target: "toolCall", key }, { kind: "number", path: "value", tolerance: 0.5 })).toMatchObject({ ok: true });
    const after = parseTestCase(readFileSync(path.join(casesFolder, "3-m-in-feet-2.case.json"), "utf8"), "x").assertions;
    expect(after.outputs).toContainEqual({ kind: "judge", rubric: "Gives the answer in feet.", threshold: 0.7, modelNode: "agent" });
    expect(after.toolCalls[0].arguments).toContainEqual({ kind: "number", path: "value", tolerance: 0.5 });
  });
});
