/**
 * The embedded kill drill (docs/runs.md, "Drills"): `npm start` itself, the
 * production web app with its in-process worker (instrumentation.ts) on
 * SQLite, is SIGKILLed, its whole process group, at random points of the
 * drill workflow's runs, SWITCHBOARD_DRILL_KILLS times (3 in `npm test`,
 * 20 with `npm run drill`), and started again each time. Runs are started
 * with `npm run workflow -- start … --json` against the same database, as a
 * script would. Every run must end with the outputs, trace and journal of an
 * uninterrupted run; the counting fixture must show that a step recorded
 * before a kill never executed again, that a step no kill caught mid-flight
 * executed exactly once, and that the charge (the one call not safe to
 * repeat) caught mid-flight ended needs-attention and never ran twice.
 *
 * No browser: its own Playwright project (playwright.config.ts), because
 * `npm run test:e2e` builds the app first and `npm start` serves that build.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { recordAttentionChoice } from "../lib/db/attention-choice";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { sqliteDatabase } from "../lib/db/sql/sqlite-database";
import { countingServer, type CountingServer, drillWorkflow, writeDrillNodes } from "../testing/queue/drill.fixture";
import { buildIsStale } from "../scripts/build-state";

const root = path.resolve(import.meta.dirname, "..");
/** How many times `npm start` is SIGKILLed: 3 in `npm test` (each costs a start of the app); `npm run drill` runs 20. */
const killCount = Number(process.env.SWITCHBOARD_DRILL_KILLS ?? 3);
/** Runs waiting or running before each kill: enough that every kill lands among runs in flight. */
const backlog = 8;
/** The steps of the drill workflow that reach the counting fixture; `charge` is the one not safe to repeat. */
const steps = ["s1", "s2", "charge", "ledger", "s3"] as const;

test.describe.configure({ mode: "serial" });

interface App {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the embedded worker said it takes runs. */
  ready: Promise<void>;
  exited: Promise<void>;
}

/** `npm start` in its own process group (npm, scripts/cli.mjs running scripts/start.ts, next start: one SIGKILL takes them all). */
function startApp(env: NodeJS.ProcessEnv): App {
  const child = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const index = logs.push("") - 1;
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      logs[index] = output;
      if (/start: building the app/.test(output)) reject(new Error(`npm start began a build: the drill needs a fresh one (\`npx next build\`)\n${output}`));
      if (/worker: embedded worker \S+ takes this server's runs/.test(output)) resolve();
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("exit", (code, signal) => reject(new Error(`npm start exited (${code ?? signal}) before its worker was ready:\n${output.slice(-4000)}`)));
  });
  ready.catch(() => undefined);
  return { child, output: () => output, ready, exited };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sendSignal(app: App, signal: NodeJS.Signals): void {
  try {
    process.kill(-(app.child.pid as number), signal);
  } catch {
    // Already gone.
  }
}

/** SIGKILLs the app's whole process group and waits until it is gone. */
async function killApp(app: App, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  const pid = app.child.pid as number;
  sendSignal(app, signal);
  // SIGTERM asks for a clean stop; past 15 s the group is killed all the same.
  if (signal !== "SIGKILL" && (await Promise.race([app.exited.then(() => true), sleep(15_000).then(() => false)])) === false) process.kill(-pid, "SIGKILL");
  await app.exited;
  // The group leader (npm) is gone; its children die with it. A zombie nobody reaps may linger: 5 s at most.
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(50);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function freePort(): Promise<number> {
  if (process.env.SWITCHBOARD_DRILL_PORT) return Number(process.env.SWITCHBOARD_DRILL_PORT);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm run workflow -- ARGS`: its last line of output, parsed as JSON (the commands' `--json`). */
function workflowCommand(env: NodeJS.ProcessEnv, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "workflow", "--", ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) return reject(new Error(`npm run workflow -- ${args.join(" ")} exited ${code}:\n${stdout}${stderr}`));
      resolve(JSON.parse(last) as Record<string, unknown>);
    });
  });
}

/** What one kill left behind, read once the app's process group is gone. */
interface Snapshot {
  /** `<step>:<tag>` → executions the fixture had counted. */
  counts: Map<string, number>;
  /** `<step>:<tag>` whose result the journal held. */
  recorded: Set<string>;
  /** Tags whose charge had started (its `…/start` entry) with no result recorded: caught mid-flight. */
  chargeCaught: Set<string>;
  /** Tags whose run was running (held by the killed worker). */
  running: Set<string>;
}

interface RunTrace {
  outputs: unknown;
  nodes: string[];
  calls: string[];
  journal: string[];
}

let folder: string;
let server: CountingServer;
let db: SqlDatabase;
let app: App | null = null;
/** Every start's output, kept in the drill's folder (left in place when the drill fails). */
const logs: string[] = [];
let passed = false;
/** While true, the fixture holds every charge's answer (the first kill's moment: a charge in flight). */
let holdCharges = false;
let onCount: ((name: string, tag: string) => void) | null = null;
/** The fixture's key of a step of the run tagged `tag` (known once the uninterrupted run has run). */
let keyOf: (step: (typeof steps)[number], tag: string) => string = () => {
  throw new Error("keyOf before the uninterrupted run");
};

test.beforeAll(async () => {
  const build = buildIsStale(root);
  if (build.stale) throw new Error(`the embedded drill runs \`npm start\` on a fresh build, and the build is stale (${build.reason}): run \`npx next build\` first (\`npm run test:e2e\` and \`npm run drill\` do)`);
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-embedded-drill-"));
  server = await countingServer({
    maxDelayMs: 60,
    delayFor: (name) => (holdCharges && name === "charge" ? 120_000 : undefined),
    onCount: (name, tag) => onCount?.(name, tag),
  });
});

test.afterAll(async () => {
  if (app) await killApp(app);
  await db?.close();
  await server?.close();
  if (!folder) return;
  if (passed) await rm(folder, { recursive: true, force: true });
  else {
    await writeFile(path.join(folder, "npm-start.log"), logs.join("\n\n----- killed; started again -----\n\n"));
    console.log(`embedded drill: its database and every npm start's output are kept in ${folder}`);
  }
});

test(`embedded kill drill: npm start SIGKILLed ${killCount} times; every run ends as an uninterrupted one, nothing recorded runs twice, a charge caught mid-flight waits for a person`, async () => {
  test.setTimeout(240_000 + killCount * 45_000);
  const databaseFile = path.join(folder, "drill.db");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `file:${databaseFile}`,
    PORT: String(await freePort()),
    SWITCHBOARD_NODES_DIR: await writeDrillNodes(folder),
    SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: server.url,
    SWITCHBOARD_OWNER_EMAIL: "drill@example.com",
    SWITCHBOARD_OWNER_PASSWORD: "embedded-drill-password",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  for (const name of ["SWITCHBOARD_EMBEDDED_WORKER", "SWITCHBOARD_RESET_DATABASE", "OTEL_EXPORTER_OTLP_ENDPOINT", "SWITCHBOARD_APPROVAL_WEBHOOK_URL"]) delete env[name];
  const documentFile = path.join(folder, "drill-workflow.json");
  await writeFile(documentFile, JSON.stringify(drillWorkflow(server.url)));
  const tagOf = new Map<string, string>();
  const startRun = async (tag: string) => {
    const { runId } = (await workflowCommand(env, ["start", documentFile, "--input", JSON.stringify({ tag }), "--json"])) as { runId: string };
    tagOf.set(runId, tag);
    return runId;
  };

  // The uninterrupted run: the first `npm start` also creates and migrates the database.
  app = startApp(env);
  await app.ready;
  db = sqliteDatabase(env.DATABASE_URL as string);
  const baselineId = await startRun("baseline");
  const waited = await workflowCommand(env, ["wait", baselineId, "--timeout", "60", "--json"]);
  expect(waited.status, app.output()).toBe("completed");
  const baseline = await traceOf(db, baselineId, "baseline");
  expect(baseline.nodes).toHaveLength(7);
  expect(baseline.calls).toEqual([expect.stringMatching(/^agent#1\/t\d+\/c\d+ recordEntry /)]);
  // What each step posts to the fixture: the run's tag, or (s3) the agent's answer, which holds it.
  const posted = new Map(steps.map((step) => [step, [...server.counts.keys()].filter((key) => key.startsWith(`${step}:`) && key.includes("baseline"))]));
  for (const [step, keys] of posted) expect(keys.map((key) => server.counts.get(key)), `${step} of the uninterrupted run: executed once`).toEqual([1]);
  keyOf = (step, tag) => (posted.get(step) as string[])[0].split("baseline").join(tag);

  const topUp = async () => {
    const [{ open }] = await db.query<{ open: number }>(`SELECT COUNT(*) AS "open" FROM "Run" WHERE "status" IN ('queued', 'running')`);
    const missing = Math.max(0, backlog - Number(open));
    await Promise.all(Array.from({ length: missing }, () => startRun(`tag-${tagOf.size}-${Math.random().toString(36).slice(2, 6)}`)));
  };

  const snapshots: Snapshot[] = [];
  for (let kill = 1; kill <= killCount; kill += 1) {
    // The moment of the kill: the first one while a charge is in flight (its answer held), the others
    // after a random number (1-12) of executions plus up to 150 ms, so they land inside steps and between them.
    let trigger: Promise<void> | null = null;
    if (kill === 1 && app) {
      // Killed the moment the charge arrives (its step would time out if the answer were held for long).
      const running = app;
      holdCharges = true;
      trigger = new Promise((resolve, reject) => {
        const late = setTimeout(() => reject(new Error(`no charge reached the counting fixture within 90 s:\n${running.output().slice(-3000)}`)), 90_000);
        onCount = (name) => {
          if (name !== "charge") return;
          sendSignal(running, "SIGKILL");
          clearTimeout(late);
          resolve();
        };
      });
      trigger.catch(() => undefined);
    }
    await topUp();
    if (!app) {
      app = startApp(env);
      await app.ready;
    }
    if (!trigger) {
      const executions = 1 + Math.floor(Math.random() * 12);
      let seen = 0;
      trigger = new Promise<void>((resolve) => {
        onCount = () => (seen += 1) >= executions && resolve();
        // Nothing left to execute (every run waits for a person, or finished): kill anyway.
        setTimeout(resolve, 8_000);
      }).then(() => sleep(Math.random() * 150));
    }
    await trigger;
    onCount = null;
    await killApp(app);
    app = null;
    holdCharges = false;
    await sleep(300); // requests the dead process had fully sent are counted by now
    snapshots.push(await snapshot(db, server, tagOf));
  }

  app = startApp(env);
  await app.ready;
  const runIds = [...tagOf.keys()];
  const ended = await waitForRuns(db, runIds, ["completed", "needs-attention"], 120_000, tagOf);
  const waiting = runIds.filter((id) => ended.get(id) === "needs-attention");
  const attentionKeys = new Map<string, string>();
  for (const id of waiting) {
    const [run] = await db.query<{ attention: string }>(`SELECT "attention" FROM "Run" WHERE "id" = ?`, [id]);
    const attention = JSON.parse(run.attention) as { nodeId: string; key: string };
    expect(attention.nodeId, `what run ${tagOf.get(id)} waits on`).toBe("charge");
    attentionKeys.set(id, attention.key);
    // A person skips the charge with the result it would have given; the worker takes the run up again.
    expect(await recordAttentionChoice(db, id, { action: "skip", result: { tag: tagOf.get(id) } })).toEqual({ ok: true });
  }
  await waitForRuns(db, runIds, ["completed"], 120_000, tagOf);
  await killApp(app, "SIGTERM");
  app = null;

  // Only a charge caught mid-flight waits for a person, and every one caught does; the first kill caught at least one.
  const caught = new Set(snapshots.flatMap((shot) => [...shot.chargeCaught]));
  expect(new Set(waiting.map((id) => tagOf.get(id)))).toEqual(caught);
  expect(snapshots[0].chargeCaught.size).toBeGreaterThan(0);

  let repeats = 0;
  for (const [id, tag] of tagOf) {
    const expected = attentionKeys.has(id) ? { ...baseline, journal: [...baseline.journal, `${attentionKeys.get(id)}/choice`].sort() } : baseline;
    expect(await traceOf(db, id, tag), `the trace of ${tag}`).toEqual(expected);
    for (const step of steps) {
      const key = keyOf(step, tag);
      const final = server.counts.get(key) ?? 0;
      const recordedAt = snapshots.find((shot) => shot.recorded.has(key));
      // Recorded before a kill: never executed again.
      if (recordedAt) expect(final, `${key} after it was recorded`).toBe(recordedAt.counts.get(key) ?? 0);
      // Caught by a kill after it had reached the fixture but before its result was recorded.
      const caughtTimes = snapshots.filter((shot) => !shot.recorded.has(key) && (shot.counts.get(key) ?? 0) > 0).length;
      if (step === "charge") {
        expect(final, `${key}: never twice`).toBeLessThanOrEqual(1);
        if (!caught.has(tag)) expect(final, key).toBe(1);
      } else if (caughtTimes === 0) {
        expect(final, `${key}: no kill caught it mid-flight, so exactly once`).toBe(1);
      } else {
        expect(final, `${key}: once, plus at most one repeat per kill that caught it`).toBeGreaterThanOrEqual(1);
        expect(final, key).toBeLessThanOrEqual(1 + caughtTimes);
        repeats += final - 1;
      }
    }
  }

  // Every run a kill caught running was resumed (the start-up sweep queued it, the new worker took it up).
  const resumes = await db.query<{ id: string; resumeCount: number }>(`SELECT "id", "resumeCount" FROM "Run"`);
  const resumeOf = new Map(resumes.map((row) => [row.id, Number(row.resumeCount)]));
  for (const [id, tag] of tagOf) {
    const heldAtKills = snapshots.filter((shot) => shot.running.has(tag)).length;
    expect(resumeOf.get(id) ?? 0, `resumes of ${tag}`).toBeGreaterThanOrEqual(heldAtKills);
  }
  const resumed = [...resumeOf.values()].reduce((sum, count) => sum + count, 0);
  expect(resumed).toBeGreaterThan(0);
  passed = true;
  console.log(
    `embedded drill: ${killCount} SIGKILLs of npm start, ${tagOf.size} runs completed, ${resumed} resumes, ` +
      `${waiting.length} charge(s) caught mid-flight ended needs-attention, ${repeats} repeat(s) of safe steps caught mid-flight`,
  );
});

/** Waits until every run has one of `statuses`; a run that ends otherwise (failed, cancelled) fails the drill at once, with its error. */
async function waitForRuns(db: SqlDatabase, runIds: readonly string[], statuses: readonly string[], timeoutMs: number, tagOf: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.query<{ id: string; status: string; error: string | null }>(`SELECT "id", "status", "error" FROM "Run" WHERE "id" IN (${runIds.map(() => "?").join(", ")})`, [...runIds]);
    const byId = new Map(rows.map((row) => [row.id, row.status]));
    const wrong = rows.filter((row) => ["failed", "cancelled"].includes(row.status) && !statuses.includes(row.status));
    if (wrong.length > 0) {
      const nodes = await db.query<{ runId: string; nodeId: string; error: string }>(`SELECT "runId", "nodeId", "error" FROM "NodeRun" WHERE "error" IS NOT NULL AND "runId" IN (${wrong.map(() => "?").join(", ")})`, wrong.map((row) => row.id));
      throw new Error(wrong.map((row) => `run ${tagOf.get(row.id)} (${row.id}) ${row.status}: ${row.error}${nodes.filter((node) => node.runId === row.id).map((node) => `\n  ${node.nodeId}: ${node.error}`).join("")}`).join("\n"));
    }
    if (runIds.every((id) => statuses.includes(byId.get(id) ?? ""))) return byId;
    if (Date.now() > deadline) throw new Error(`runs still not ${statuses.join("/")}: ${[...byId].filter(([, status]) => !statuses.includes(status)).map(([id, status]) => `${tagOf.get(id)} ${status}`).join(", ")}`);
    await sleep(100);
  }
}

/** The run's outcome, node runs, calls and journal keys, with its tag made neutral so runs compare. */
async function traceOf(db: SqlDatabase, runId: string, tag: string): Promise<RunTrace> {
  const neutral = (text: string) => text.split(tag).join("<tag>");
  const [run] = await db.query<{ outputs: string }>(`SELECT "outputs" FROM "Run" WHERE "id" = ?`, [runId]);
  const nodes = await db.query<{ nodeId: string; status: string }>(`SELECT "nodeId", "status" FROM "NodeRun" WHERE "runId" = ? ORDER BY "nodeId"`, [runId]);
  const calls = await db.query<{ tool: string; arguments: string; result: string; stepKey: string }>(`SELECT "tool", "arguments", "result", "stepKey" FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`, [runId]);
  const journal = await db.query<{ key: string; kind: string }>(`SELECT "key", "kind" FROM "RunStep" WHERE "runId" = ?`, [runId]);
  return {
    outputs: JSON.parse(neutral(run.outputs)),
    nodes: nodes.map((node) => `${node.nodeId}:${node.status}`),
    calls: calls.map((call) => neutral(`${call.stepKey} ${call.tool} ${call.arguments} → ${call.result}`)),
    journal: journal.map((step) => step.key).sort(),
  };
}

async function snapshot(db: SqlDatabase, server: CountingServer, tagOf: ReadonlyMap<string, string>): Promise<Snapshot> {
  const shot: Snapshot = { counts: new Map(server.counts), recorded: new Set(), chargeCaught: new Set(), running: new Set() };
  const started = new Set<string>();
  for (const row of await db.query<{ runId: string; key: string; kind: string }>(`SELECT "runId", "key", "kind" FROM "RunStep"`)) {
    const tag = tagOf.get(row.runId);
    const step = steps.find((name) => row.key.startsWith(`${name}#`));
    if (!tag || !step) continue;
    if (row.kind === "node-result") shot.recorded.add(keyOf(step, tag));
    if (row.kind === "call-start" && step === "charge") started.add(tag);
  }
  for (const row of await db.query<{ runId: string }>(`SELECT "runId" FROM "ToolCall" WHERE "tool" = 'recordEntry' AND "stepKey" IS NOT NULL`)) {
    const tag = tagOf.get(row.runId);
    if (tag) shot.recorded.add(keyOf("ledger", tag));
  }
  for (const tag of started) if (!shot.recorded.has(keyOf("charge", tag))) shot.chargeCaught.add(tag);
  for (const row of await db.query<{ id: string }>(`SELECT "id" FROM "Run" WHERE "status" = 'running'`)) {
    const tag = tagOf.get(row.id);
    if (tag) shot.running.add(tag);
  }
  return shot;
}
