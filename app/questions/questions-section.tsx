import { QuestionList } from "@/components/questions/question-list";
import type { QuestionView } from "@/components/questions/question-view";
import { listWaitingQuestions, type WaitingQuestion } from "@/lib/db";
import { questionFields } from "@/lib/questions/question-fields";
import { answerQuestion } from "@/app/actions/questions";
import { runService } from "@/lib/runs";

/**
 * The "Questions" section: every question a tool asked (MCP elicitation)
 * that waits for a person, with its generated form. On its own page
 * (/questions) and meant to sit on the Approvals page as one include.
 */
export async function QuestionsSection({ runId, canAnswer }: { runId?: string; canAnswer: boolean }) {
  const waiting = await listWaitingQuestions(runService().db);
  const questions = waiting.filter((question) => !runId || question.runId === runId).map(viewOf);
  return (
    <section aria-labelledby="questions-heading">
      <h2 id="questions-heading">Questions from tools</h2>
      <QuestionList questions={questions} answer={canAnswer ? answerQuestion : undefined} />
    </section>
  );
}

function viewOf(waiting: WaitingQuestion): QuestionView {
  const { request } = waiting;
  const { question } = request.question;
  return {
    questionId: waiting.questionId,
    runId: waiting.runId,
    server: request.server,
    tool: request.tool,
    caller: request.nodeId,
    since: request.question.since,
    deadline: request.question.deadline,
    message: question.message,
    mode: question.mode,
    ...(question.mode === "url" ? { url: question.url } : {}),
    fields: question.mode === "form" ? questionFields(question.requestedSchema) : [],
  };
}
