import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { PrismaAccounts } from "@/lib/db/accounts";
import { demoWorkflow } from "@/lib/db/demo-workflow";
import { closeProcessRuns } from "@/lib/runs";

// TEST DOUBLE for the request: the cookie jar of the person acting.
const jar = { value: undefined as string | undefined };
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "switchboard_session" && jar.value ? { name, value: jar.value } : undefined), set: () => undefined, delete: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// TEST DOUBLE for Next's after(): the work it is handed after the answer is kept here, to be awaited by the test.
const later: Array<() => unknown> = [];
vi.mock("next/server", () => ({ after: (task: () => unknown) => void later.push(task) }));

const database = temporaryAppDatabase();
const casesFolder = mkdtempSync(path.join(os.tmpdir(), "switchboard-version-cases-"));
let actions: typeof import("./workflows");

beforeAll(async () => {
  process.env.SWITCHBOARD_CASES_DIR = casesFolder;
  // The repository's demo cases: pinned runs of the demo workflow.
  for (const file of ["demo-5-km-in-miles.case.json", "demo-a-marathon-in-km.case.json"]) copyFileSync(path.join("tests/cases", file), path.join(casesFolder, file));
  const { startSession } = await import("@/lib/auth/sessions");
  const person = await new PrismaAccounts(database.client).createUser({ email: "editor@example.test", role: "editor", passwordHash: "scrypt$unused" });
  jar.value = (await startSession(person!.id)).value;
  await database.client.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  await database.client.workflow.create({ data: { id: "no-cases", name: "No cases", description: "", document: JSON.stringify({ ...demoWorkflow.document, name: "No cases" }) } });
  actions = await import("./workflows");
}, 60_000);

afterAll(async () => {
  delete process.env.SWITCHBOARD_CASES_DIR;
  await closeProcessRuns();
  rmSync(casesFolder, { recursive: true, force: true });
});

async function drain(): Promise<void> {
  while (later.length) await later.shift()!();
}

describe("saving a version records its test result", () => {
  it("answers at once with the tests running, then stores passed counts for the demo as it is", async () => {
    const saved = await actions.saveWorkflowVersionAction("demo", demoWorkflow.document, "as shipped");
    if (!saved.ok) throw new Error(saved.error);
    expect(saved.version.tests).toEqual({ status: "running", passed: null, failed: null, summary: null });
    expect(later).toHaveLength(1);
    await drain();
    const listed = await actions.listWorkflowVersionsAction("demo");
    if (!listed.ok) throw new Error(listed.error);
    expect(listed.versions[0].tests).toEqual({ status: "passed", passed: 2, failed: 0, summary: null });
  }, 120_000);

  it("stores the failures of a version whose agent prompt changed, naming the first", async () => {
    const edited = { ...demoWorkflow.document, nodes: demoWorkflow.document.nodes.map((node) => (node.id === "agent" ? { ...node, config: { ...node.config, systemPrompt: "Terse." } } : node)) };
    const saved = await actions.saveWorkflowVersionAction("demo", edited, "terse");
    if (!saved.ok) throw new Error(saved.error);
    await drain();
    const listed = await actions.listWorkflowVersionsAction("demo");
    if (!listed.ok) throw new Error(listed.error);
    expect(listed.versions[0]).toMatchObject({ number: 2, tests: { status: "failed", passed: 0, failed: 2, summary: expect.stringContaining("agent") } });
    expect(listed.versions[1].tests?.status).toBe("passed");
  }, 120_000);

  it("records nothing for a workflow without cases", async () => {
    const saved = await actions.saveWorkflowVersionAction("no-cases", { ...demoWorkflow.document, name: "No cases" }, "");
    if (!saved.ok) throw new Error(saved.error);
    expect(saved.version.tests).toBeNull();
    expect(later).toHaveLength(0);
  });
});
