"use server";

import path from "node:path";
import { requireRole } from "@/lib/auth/require-role";
import { prisma } from "@/lib/db/client";
import { PinError } from "@/lib/evals/pin-run";
import { databaseUrl } from "@/lib/db/database-url";
import { parseWorkflow } from "@/lib/graph";
import { type CaseOutcome, caseOutcome, casesDir, keepRunAsTest, runService, runTestCases, workflowCases } from "@/lib/runs";

/** What keepRunAsTestCase answers: where the case was written and its text (for the download), or why not. */
export type KeepAsTestResult = { ok: true; file: string; fileName: string; text: string } | { ok: false; error: string; field?: "runId" | "name" };

/**
 * Keeps a completed run as a test case file in the cases folder
 * (SWITCHBOARD_CASES_DIR, default tests/cases; see docs/tests.md) and
 * answers its text, which the run page offers as a download. Refused with a
 * message for a run that is not completed or does not exist. Writing into
 * the repository is an editor's step.
 */
export async function keepRunAsTestCase(runId: string, name?: string): Promise<KeepAsTestResult> {
  await requireRole("editor");
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given.", field: "runId" };
  if (name !== undefined && (typeof name !== "string" || name.length > 200)) return { ok: false, error: "The case's name must be text of at most 200 characters.", field: "name" };
  try {
    const kept = await keepRunAsTest(prisma(), runId, { name: name?.trim() || undefined });
    const relative = path.relative(process.cwd(), kept.file);
    return { ok: true, file: relative.startsWith("..") ? kept.file : relative, fileName: path.basename(kept.file), text: kept.text };
  } catch (error) {
    if (error instanceof PinError) return { ok: false, error: error.message, field: "runId" };
    console.error("The run could not be kept as a test case:", error);
    const reason = error instanceof Error ? error.message.split("\n")[0] : "";
    return { ok: false, error: `The run could not be kept as a test case in ${casesDir()} because of an error on our side${reason ? ` (${reason})` : ""}. The server log has the details.` };
  }
}

/** What testWorkflowDocument answers: each case's outcome, or why none ran. */
export type TestDocumentResult =
  | { ok: true; outcomes: CaseOutcome[]; passed: number; failed: number; problems: string[] }
  | { ok: false; error: string; field?: "workflowId" | "document"; noCases?: boolean };

/**
 * The editor's Test button: runs the workflow's cases (the case files in
 * the cases folder whose workflow id is this workflow) against the document
 * on the canvas, saved or not, through the run service with tools and model
 * answering from each cassette. Answers per case whether it passed, and for
 * a failure its first divergent step and that step's node. Running is a
 * runner's step, as a run is.
 */
export async function testWorkflowDocument(workflowId: string, document: unknown): Promise<TestDocumentResult> {
  const actor = await requireRole("runner");
  if (typeof workflowId !== "string" || workflowId === "") return { ok: false, error: "Which workflow? No workflow id was given.", field: "workflowId" };
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return { ok: false, error: `The document is not a workflow: ${parsed.problems[0]?.message ?? "unreadable"}.`, field: "document" };
  try {
    const { cases, problems } = await workflowCases(workflowId);
    if (cases.length === 0) {
      const unread = problems.length ? ` ${problems.length} case file${problems.length === 1 ? "" : "s"} could not be read: ${problems.join("; ")}` : "";
      return { ok: false, noCases: true, error: `This workflow has no test cases yet. Open a completed run and press "Keep as test" to pin it as one.${unread}` };
    }
    const results = await runTestCases(cases, { document: parsed.workflow, by: actor.email, parallel: 4 }, { service: runService(), prisma: prisma(), databaseUrl: databaseUrl() });
    const outcomes = results.map(caseOutcome);
    const passed = outcomes.filter((outcome) => outcome.pass).length;
    return { ok: true, outcomes, passed, failed: outcomes.length - passed, problems };
  } catch (error) {
    console.error("The workflow's test cases could not be run:", error);
    const reason = error instanceof Error ? error.message.split("\n")[0] : "";
    return { ok: false, error: `The test cases in ${casesDir()} could not be run because of an error on our side${reason ? ` (${reason})` : ""}. The server log has the details.` };
  }
}
