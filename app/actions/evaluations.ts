"use server";

import { revalidatePath } from "next/cache";
import { requireRole } from "@/lib/auth";
import { prisma } from "@/lib/db/app";
import { DatasetStore, readRunTotals } from "@/lib/db";
import { parseScorer, ScorerError, type Scorer } from "@/lib/evals";
import { beginEvaluation, evaluateInBackground, EvaluationRequestError, runService } from "@/lib/runs";

export type EvaluationActionResult = { ok: true; evaluationId: string; resumed: boolean } | { ok: false; error: string };
export type ScorersActionResult = { ok: true; scorers: Scorer[] } | { ok: false; error: string; field?: string };

/**
 * Scores a stored dataset on a version of the workflow (null: the document
 * as it stands): every row a run through the queue, scored as it ends. The
 * page follows the progress. Runners and above.
 */
export async function startEvaluationAction(workflowId: string, datasetId: string, version: number | null): Promise<EvaluationActionResult> {
  const actor = await requireRole("runner");
  if (typeof workflowId !== "string" || typeof datasetId !== "string" || datasetId === "") return { ok: false, error: "Choose a dataset to evaluate." };
  if (version !== null && !(Number.isInteger(version) && version > 0)) return { ok: false, error: "Choose a version, or the current document." };
  const service = runService();
  try {
    const { evaluation, resumed } = await beginEvaluation(service, { workflowId, datasetId, version, by: actor.email });
    evaluateInBackground(service, evaluation, { totals: (runIds) => readRunTotals(prisma(), runIds) });
    revalidatePath(`/workflows/${workflowId}/tests`);
    return { ok: true, evaluationId: evaluation.id, resumed };
  } catch (error) {
    if (error instanceof EvaluationRequestError) return { ok: false, error: error.message };
    console.error("The evaluation could not start:", error);
    return { ok: false, error: "The evaluation could not start because of an error on our side; the server log has the details." };
  }
}

/** Replaces the workflow's scorers, each checked; a wrong one names its field (`scorers[1].pattern`). Editors and above. */
export async function saveScorersAction(workflowId: string, scorers: unknown): Promise<ScorersActionResult> {
  await requireRole("editor");
  if (typeof workflowId !== "string" || !Array.isArray(scorers)) return { ok: false, error: "Which workflow, and which scorers?" };
  let parsed: Scorer[];
  try {
    parsed = scorers.map((scorer, index) => parseScorer(scorer, `scorers[${index}]`));
  } catch (error) {
    if (error instanceof ScorerError) return { ok: false, error: error.message, field: error.place };
    throw error;
  }
  const [workflow] = await runService().db.query<{ id: string }>(`SELECT "id" FROM "Workflow" WHERE "id" = ?`, [workflowId]);
  if (!workflow) return { ok: false, error: `There is no workflow "${workflowId}".` };
  await new DatasetStore(runService().db).saveScorers(workflowId, parsed);
  revalidatePath(`/workflows/${workflowId}/tests`);
  return { ok: true, scorers: parsed };
}
