import { EmptyState } from "@/components/ui/empty-state";
import { QuestionForm } from "./question-form";
import type { AnswerQuestionAction, QuestionView } from "./question-view";
import styles from "./questions.module.css";

/** Every question tools asked that waits for a person, oldest first, each with its own answer form. */
/** `answer` is absent for people who may only read (viewers): the questions are listed without their forms. */
export function QuestionList({ questions, answer }: { questions: readonly QuestionView[]; answer?: AnswerQuestionAction }) {
  if (questions.length === 0) {
    return (
      <EmptyState title="No tool is waiting for an answer">
        <p>When an MCP server asks a question during a call (elicitation), the run waits and the question appears here.</p>
      </EmptyState>
    );
  }
  return (
    <ul className={styles.list} aria-label="Questions waiting for an answer">
      {questions.map((question) => (
        <li key={question.questionId}>
          {answer ? <QuestionForm question={question} answer={answer} /> : <p className="small">{question.server}/{question.tool} asks: {question.message} (a runner or above answers it)</p>}
        </li>
      ))}
    </ul>
  );
}
