import type { PrismaClient } from "../db/create-client";
import type { Workflow } from "../graph";
import type { RunService } from "./run-service";
import { runTestCases } from "./test-cases";
import { type WorkflowCases, workflowCases } from "./workflow-cases";

/** How a saved version's test cases came out, as the versions list shows it. */
export interface VersionTests {
  status: "running" | "passed" | "failed" | "error";
  passed: number | null;
  failed: number | null;
  summary: string | null;
}

/** The stored columns as a VersionTests; null when the version was saved with no cases to run. */
export function versionTests(row: { testStatus: string | null; testsPassed: number | null; testsFailed: number | null; testSummary: string | null }): VersionTests | null {
  if (row.testStatus !== "running" && row.testStatus !== "passed" && row.testStatus !== "failed" && row.testStatus !== "error") return null;
  return { status: row.testStatus, passed: row.testsPassed, failed: row.testsFailed, summary: row.testSummary };
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
  deps: { service: RunService; databaseUrl: string; by?: string; found?: WorkflowCases; log?: (line: string) => void },
): Promise<VersionTests | null> {
  const where = { workflowId_number: { workflowId: version.workflowId, number: version.number } };
  let stored: VersionTests | null = null;
  try {
    const { cases } = deps.found ?? (await workflowCases(version.workflowId));
    if (cases.length === 0) return null;
    await db.workflowVersion.update({ where, data: { testStatus: "running", testsPassed: null, testsFailed: null, testSummary: null } });
    const results = await runTestCases(cases, { document: version.document, by: deps.by, parallel: 4 }, { service: deps.service, prisma: db, databaseUrl: deps.databaseUrl, log: deps.log });
    const failing = results.filter((result) => !result.pass);
    stored = { status: failing.length ? "failed" : "passed", passed: results.length - failing.length, failed: failing.length, summary: failing[0] ? `${failing[0].name}: ${failing[0].failures[0] ?? "failed"}` : null };
  } catch (error) {
    stored = { status: "error", passed: null, failed: null, summary: `The test cases could not be run: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  try {
    await db.workflowVersion.update({ where, data: { testStatus: stored.status, testsPassed: stored.passed, testsFailed: stored.failed, testSummary: stored.summary?.slice(0, 2000) ?? null } });
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
