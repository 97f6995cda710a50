import { hostname } from "node:os";
import { type PrismaClient, holderMayBeAlive } from "../db";
import { parseWorkflow, type Workflow } from "../graph";
import type { RunService } from "./run-service";
import { runTestCases } from "./test-cases";
import { type WorkflowCases, workflowCases } from "./workflow-cases";

/** How a saved version's test cases came out, as the versions list shows it. */
export interface VersionTests {
  status: "running" | "passed" | "failed" | "error" | "interrupted";
  passed: number | null;
  failed: number | null;
  summary: string | null;
}

const versionTestStatuses: ReadonlyArray<VersionTests["status"]> = ["running", "passed", "failed", "error", "interrupted"];

/** How long a version's test may run before the sweep takes it up although its process may live (another host's). */
export const versionTestLeaseMs = 30 * 60_000;

/** Starts after which a version's test interrupted again is left to a person ("Run again"). */
export const maxVersionTestAttempts = 2;

/** The process that runs a version's test, as the sweep tells a gone one: `host:pid` (see holderMayBeAlive). */
function thisProcess(): string {
  return `${hostname()}:${process.pid}`;
}

/** The columns of a version whose test starts now, in this process. */
export function versionTestStart(now: Date = new Date()) {
  return { testStatus: "running", testsPassed: null, testsFailed: null, testSummary: null, testStartedAt: now, testHolder: thisProcess(), testAttempts: { increment: 1 } } as const;
}

/** The stored columns as a VersionTests; null when the version was saved with no cases to run. */
export function versionTests(row: { testStatus: string | null; testsPassed: number | null; testsFailed: number | null; testSummary: string | null }): VersionTests | null {
  const status = versionTestStatuses.find((known) => known === row.testStatus);
  if (!status) return null;
  return { status, passed: row.testsPassed, failed: row.testsFailed, summary: row.testSummary };
}

/**
 * Runs the workflow's cases against a version just saved and stores the
 * outcome with the version (passed and failed counts; the first failing
 * case's first reason; or why they could not run). The version is marked
 * running first. Nothing is stored when the workflow has no cases. Never
 * throws: the save has already answered.
 */
export async function recordVersionTests(
  db: PrismaClient,
  version: { workflowId: string; number: number; document: Workflow },
  deps: { service: RunService; databaseUrl: string; by?: string; found?: WorkflowCases; log?: (line: string) => void; /** The version was already marked running by this process (versionTestStart). */ started?: boolean },
): Promise<VersionTests | null> {
  const where = { workflowId_number: { workflowId: version.workflowId, number: version.number } };
  let stored: VersionTests | null = null;
  try {
    const { cases } = deps.found ?? (await workflowCases(version.workflowId));
    if (cases.length === 0) {
      // No cases any more: a version marked running before (a sweep's re-run) shows no result rather than running for good.
      if (deps.started) await db.workflowVersion.update({ where, data: { testStatus: null, testHolder: null } });
      return null;
    }
    if (!deps.started) await db.workflowVersion.update({ where, data: versionTestStart() });
    const results = await runTestCases(cases, { document: version.document, by: deps.by, parallel: 4 }, { service: deps.service, prisma: db, databaseUrl: deps.databaseUrl, log: deps.log });
    const failing = results.filter((result) => !result.pass);
    stored = { status: failing.length ? "failed" : "passed", passed: results.length - failing.length, failed: failing.length, summary: failing[0] ? `${failing[0].name}: ${failing[0].failures[0] ?? "failed"}` : null };
  } catch (error) {
    stored = { status: "error", passed: null, failed: null, summary: `The test cases could not be run: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  try {
    await db.workflowVersion.update({ where, data: { testStatus: stored.status, testsPassed: stored.passed, testsFailed: stored.failed, testSummary: stored.summary?.slice(0, 2000) ?? null, testHolder: null } });
  } catch (error) {
    (deps.log ?? console.error)(`The test result of version ${version.number} of workflow "${version.workflowId}" could not be stored: ${(error as Error).message}`);
  }
  return stored;
}

/** A saved version as the versions list shows it: number, note, time and its test result. */
export function versionItemOf(version: { number: number; note: string; createdAt: Date; testStatus: string | null; testsPassed: number | null; testsFailed: number | null; testSummary: string | null }): {
  number: number;
  note: string;
  createdAt: string;
  tests: VersionTests | null;
} {
  return { number: version.number, note: version.note, createdAt: version.createdAt.toISOString(), tests: versionTests(version) };
}

/** What the sweep did: version tests run again, and those marked interrupted (left to a person). */
export interface VersionTestSweep {
  rerun: Array<{ workflowId: string; number: number; tests: VersionTests | null }>;
  interrupted: Array<{ workflowId: string; number: number }>;
}

export const interruptedVersionTestsSummary = "The cases stopped twice before they finished (the server running them stopped); run them again.";

/**
 * Version tests a stopped process left running: its result is recorded
 * after the save answered, so a process killed in between leaves the version
 * "running" for good. A test is taken up when the process that runs it is
 * surely gone (one of this host's that no longer runs) or it started more
 * than `leaseMs` ago; each is claimed by one conditional update, so of two
 * processes sweeping at once only one takes it. Its cases are run again
 * against the version's document (from cassettes: quick, and no call
 * reaches a real service), once: a test that was already started
 * maxVersionTestAttempts times is marked interrupted instead, and the
 * versions list offers "Run again". Run at start-up and on a timer by the
 * web process (instrumentation.ts); one version at a time.
 *
 * @example await sweepInterruptedVersionTests(prisma(), { service: runService(), databaseUrl: databaseUrl() })
 */
export async function sweepInterruptedVersionTests(
  db: PrismaClient,
  deps: { service: RunService; databaseUrl: string; log?: (line: string) => void; now?: Date; leaseMs?: number; mayBeAlive?: (holder: string) => boolean; found?: (workflowId: string) => Promise<WorkflowCases> },
): Promise<VersionTestSweep> {
  const now = deps.now ?? new Date();
  const lease = deps.leaseMs ?? versionTestLeaseMs;
  const mayBeAlive = deps.mayBeAlive ?? holderMayBeAlive;
  const running = await db.workflowVersion.findMany({ where: { testStatus: "running" }, select: { id: true, workflowId: true, number: true, document: true, createdAt: true, testStartedAt: true, testHolder: true, testAttempts: true } });
  const sweep: VersionTestSweep = { rerun: [], interrupted: [] };
  for (const version of running) {
    const startedAt = version.testStartedAt ?? version.createdAt;
    const lapsed = now.getTime() - startedAt.getTime() >= lease;
    if (!lapsed && version.testHolder !== null && mayBeAlive(version.testHolder)) continue;
    const giveUp = version.testAttempts >= maxVersionTestAttempts;
    const claim = giveUp
      ? { testStatus: "interrupted", testSummary: interruptedVersionTestsSummary, testHolder: null }
      : versionTestStart(now);
    // Only if nobody took it meanwhile: the same start and holder as read.
    const claimed = await db.workflowVersion.updateMany({ where: { id: version.id, testStatus: "running", testStartedAt: version.testStartedAt, testHolder: version.testHolder }, data: claim });
    if (claimed.count === 0) continue;
    if (giveUp) {
      sweep.interrupted.push({ workflowId: version.workflowId, number: version.number });
      deps.log?.(`tests: version ${version.number} of workflow "${version.workflowId}" was interrupted ${version.testAttempts} times; marked interrupted`);
      continue;
    }
    const parsed = parseWorkflow(JSON.parse(version.document));
    const document = parsed.ok ? parsed.workflow : null;
    deps.log?.(`tests: version ${version.number} of workflow "${version.workflowId}" was left running by a stopped process; its cases run again`);
    const tests = document
      ? await recordVersionTests(db, { workflowId: version.workflowId, number: version.number, document }, { service: deps.service, databaseUrl: deps.databaseUrl, log: deps.log, started: true, ...(deps.found ? { found: await deps.found(version.workflowId) } : {}) })
      : await storeUnreadable(db, version.id);
    sweep.rerun.push({ workflowId: version.workflowId, number: version.number, tests });
  }
  return sweep;
}

async function storeUnreadable(db: PrismaClient, id: string): Promise<VersionTests> {
  const tests: VersionTests = { status: "error", passed: null, failed: null, summary: "The test cases could not be run: the version's document is not a workflow" };
  await db.workflowVersion.update({ where: { id }, data: { testStatus: tests.status, testSummary: tests.summary, testHolder: null } });
  return tests;
}
