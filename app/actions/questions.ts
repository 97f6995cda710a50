"use server";

import { requireRole } from "@/lib/auth";
import type { AnswerQuestionAction, AnswerSubmission } from "@/components/questions/question-view";
import { runService } from "@/lib/runs";

/**
 * A person's answer to a tool's question (MCP elicitation): the form's
 * values, decline or cancel. It is journalled and the run is queued again;
 * the call is made again and the tool receives the answer.
 */
export async function answerQuestion(questionId: string, submission: AnswerSubmission): ReturnType<AnswerQuestionAction> {
  const actor = await requireRole("runner");
  if (typeof questionId !== "string" || questionId === "") return { ok: false, error: "Which question? No question id was given." };
  const action = submission?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") return { ok: false, error: "Answer, decline or cancel." };
  try {
    const values = action === "accept" && submission.action === "accept" && submission.values && typeof submission.values === "object" ? submission.values : undefined;
    const result = await runService().answer(questionId, action === "accept" ? { action, values, by: actor.email } : { action, by: actor.email });
    if (!result.ok) return result;
    return { ok: true };
  } catch (error) {
    console.error("The answer could not be recorded:", error);
    return { ok: false, error: "The answer could not be recorded because of an error on our side. The server log has the details." };
  }
}
