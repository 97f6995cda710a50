"use server";

import { DatabaseError, getWorkflow, prisma } from "@/lib/db";
import { appEnvironment } from "@/app/runs/run-environment";
import { type GraphProblem, parseWorkflow, validateRunInput, validateWorkflow } from "@/lib/graph";
import { abortRun, launchRun } from "@/app/runs/run-launcher";
import { validateConfig } from "@/lib/canvas/config-check";

/** What startRun answers: the new run's id, or what is wrong and (when it is one field) which. */
export type StartRunResult = { ok: true; runId: string } | { ok: false; error: string; field?: string };
export type CancelRunResult = { ok: true } | { ok: false; error: string };

/**
 * Starts a run of a saved workflow and returns its id at once; the run goes
 * on in the background and /runs/<id> follows it. Everything the person can
 * fix is checked first and refused with a message (and `field`, e.g.
 * `input.question`, when one input field is at fault): an unknown workflow,
 * a document that does not parse, graph errors, an input that does not
 * match the Start's fields. No run is recorded for a refusal.
 */
export async function startRun(workflowId: string, input: Record<string, unknown>): Promise<StartRunResult> {
  // Authorization goes here once auth exists: may this person run this workflow?
  if (typeof workflowId !== "string" || workflowId.trim() === "") return { ok: false, error: "Choose a workflow to run.", field: "workflowId" };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: "The input must be an object with one property per input field.", field: "input" };
  }
  try {
    const record = await getWorkflow(workflowId);
    if (!record) return { ok: false, error: `There is no workflow "${workflowId}"; it may have been deleted.`, field: "workflowId" };
    const parsed = parseWorkflow(record.document);
    if (!parsed.ok) return { ok: false, error: `The workflow's document is not valid: ${describe(parsed.problems)}` };
    const env = await appEnvironment();
    // Settings are checked as the engine and the canvas check them, so a refusal records no failed run.
    const graphErrors = validateWorkflow(parsed.workflow, env.nodeTypes, { validateConfig }).filter((problem) => problem.severity === "error");
    if (graphErrors.length > 0) return { ok: false, error: `The workflow has problems to fix on the canvas first: ${describe(graphErrors)}` };
    const checked = validateRunInput(parsed.workflow, input);
    if (!checked.ok) {
      const [first] = checked.problems;
      return { ok: false, error: describe(checked.problems), ...(checked.problems.length === 1 && first.field ? { field: first.field } : {}) };
    }
    const runId = await launchRun({ workflowId: record.id, workflow: parsed.workflow, input: checked.values, env });
    return { ok: true, runId };
  } catch (error) {
    return { ok: false, error: unexpected("The run could not be started", error) };
  }
}

/**
 * Asks a running run to stop. Its nodes end as cancelled and the run as
 * cancelled once the engine has closed what it opened; the trace page shows
 * that when it happens.
 */
export async function cancelRun(runId: string): Promise<CancelRunResult> {
  // Authorization goes here once auth exists: may this person cancel this run?
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given." };
  if (abortRun(runId)) return { ok: true };
  try {
    const run = await prisma().run.findUnique({ where: { id: runId }, select: { status: true } });
    if (!run) return { ok: false, error: `There is no run "${runId}".` };
    if (run.status !== "running") return { ok: false, error: `The run has already ended (${run.status}).` };
    return { ok: false, error: "This run is not running in this server process. If the server restarted, the run is marked failed at its next start." };
  } catch (error) {
    return { ok: false, error: unexpected("The run could not be cancelled", error) };
  }
}

function describe(problems: readonly GraphProblem[]): string {
  const shown = problems.slice(0, 5).map((problem) => problem.message);
  return shown.join("; ") + (problems.length > shown.length ? `; and ${problems.length - shown.length} more` : "");
}

/** A clear line for the person, the whole error for the server log; never a stack trace in the answer. */
function unexpected(what: string, error: unknown): string {
  console.error(`${what}:`, error);
  if (error instanceof DatabaseError) return `${what}: ${error.message}`;
  const reason = error instanceof Error ? error.message.split("\n")[0] : "";
  return `${what} because of an error on our side${reason ? ` (${reason})` : ""}. The server log has the details.`;
}
