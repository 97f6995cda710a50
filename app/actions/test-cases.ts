"use server";

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { requireRole } from "@/lib/auth";
import { prisma } from "@/lib/db/app";
import { caseFileText, parseTestCase, PinError, type TestCase, TestCaseError } from "@/lib/evals";
import { databaseUrl } from "@/lib/db";
import { parseWorkflow } from "@/lib/graph";
import type { TestOutcomes } from "@/components/workflows/action-types";
import { caseOutcome, casesDir, keepRunAsTest, runService, runTestCases, workflowCases } from "@/lib/runs";

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
export type TestDocumentResult = TestOutcomes;

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

/** What a case editor's change names: the assertion list it goes into. */
export type CaseEditTarget = { target: "outputs" } | { target: "toolCall"; key: string } | { target: "modelRequest"; step: string };

/** What editTestCase answers: the case file's new text, or the field at fault. */
export type EditCaseResult = { ok: true; text: string } | { ok: false; error: string; field?: string };

/**
 * The run page's case editor: adds one scorer to a kept case's assertions
 * (a loosening of the End outputs, of a tool call's arguments or of a model
 * turn's request; or a judge of the outputs) and writes the case file back.
 * The changed case is read again by the case parser before it is written,
 * so a bad scorer is refused with its field named and the file is left as
 * it was. Changing the repository's cases is an editor's step.
 */
export async function editTestCase(fileName: string, edit: CaseEditTarget, scorer: unknown): Promise<EditCaseResult> {
  await requireRole("editor");
  if (typeof fileName !== "string" || !/^[^/\\]+\.case\.(json|ya?ml)$/.test(fileName)) return { ok: false, error: "Which case? Give the case file's name (NAME.case.json) in the cases folder.", field: "fileName" };
  const file = path.join(casesDir(), fileName);
  let testCase: TestCase;
  try {
    testCase = parseTestCase(await readFile(file, "utf8"), fileName);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: false, error: `There is no case file "${fileName}" in ${casesDir()}.`, field: "fileName" };
    if (error instanceof TestCaseError) return { ok: false, error: error.message, field: error.field ?? "fileName" };
    throw error;
  }
  const assertions = structuredClone(testCase.assertions) as { outputs: unknown[]; toolCalls: Array<{ key: string; tool: string; arguments: unknown[] }>; modelRequests: Array<{ step: string; scorers: unknown[] }> };
  if (edit?.target === "outputs") assertions.outputs.push(scorer);
  else if (edit?.target === "toolCall") {
    const call = assertions.toolCalls.find((candidate) => candidate.key === edit.key);
    if (!call) return { ok: false, error: `The case has no tool call "${edit.key}"; it has ${assertions.toolCalls.map((candidate) => candidate.key).join(", ") || "none"}.`, field: "key" };
    call.arguments.push(scorer);
  } else if (edit?.target === "modelRequest") {
    if (typeof edit.step !== "string" || edit.step.trim() === "") return { ok: false, error: "Which model turn? Name a turn (agent#1/t1), a node run (agent#1), a node (agent) or * for every turn.", field: "step" };
    const entry = assertions.modelRequests.find((candidate) => candidate.step === edit.step.trim());
    if (entry) entry.scorers.push(scorer);
    else assertions.modelRequests.push({ step: edit.step.trim(), scorers: [scorer] });
  } else return { ok: false, error: "What does the change apply to? The End outputs, a tool call or a model request.", field: "target" };
  const text = caseFileText({ ...testCase, assertions: assertions as TestCase["assertions"] });
  try {
    parseTestCase(text, fileName);
  } catch (error) {
    if (error instanceof TestCaseError) return { ok: false, error: error.message.replace(/^[^:]+:\d+: /, ""), field: error.field ?? undefined };
    throw error;
  }
  await writeFile(file, text);
  return { ok: true, text };
}
