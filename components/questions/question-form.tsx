"use client";

import { type FormEvent, useId, useState, useTransition } from "react";
import { DateTime } from "@/components/ui/date-time";
import { QuestionFieldInput } from "./question-field-input";
import type { AnswerQuestionAction, AnswerSubmission, QuestionView } from "./question-view";
import styles from "./questions.module.css";

/**
 * One tool's question and the ways to answer it: the form generated from
 * its schema (or, in URL mode, the page to open), then submit, decline or
 * cancel. The answer is journalled and the run goes on.
 */
export function QuestionForm({ question, answer }: { question: QuestionView; answer: AnswerQuestionAction }) {
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const id = useId();
  const headingId = `${id}-heading`;
  const send = (submission: AnswerSubmission, word: string) =>
    startTransition(async () => {
      const result = await answer(question.questionId, submission);
      if (!result.ok) {
        setError(result.error);
        setFieldErrors(result.fields ?? {});
        return;
      }
      setError(null);
      setFieldErrors({});
      setDone(`${word}. The run goes on.`);
    });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values: Record<string, string | string[]> = {};
    for (const field of question.fields) {
      if (field.kind === "choices") values[field.name] = data.getAll(field.name).map(String);
      else if (data.has(field.name)) values[field.name] = String(data.get(field.name));
    }
    send({ action: "accept", values }, "Answered");
  };
  const safeUrl = question.url && /^https?:\/\//i.test(question.url) ? question.url : undefined;
  return (
    <article className={`card ${styles.question}`} aria-labelledby={headingId} data-question={question.questionId}>
      <h2 id={headingId}>
        {question.server}/{question.tool} asks
      </h2>
      <p>
        Asked by the tool during a call from <strong>{question.caller}</strong> in run <a href={`/runs/${encodeURIComponent(question.runId)}`}>{question.runId.slice(0, 8)}</a>, <DateTime value={new Date(question.since)} />. Unanswered, it is cancelled at <DateTime value={new Date(question.deadline)} />.
      </p>
      <blockquote>{question.message || "(the tool gave no message)"}</blockquote>
      {done ? (
        <p role="status">{done}</p>
      ) : (
        <form aria-label={`Answer the question of ${question.tool}`} onSubmit={submit} className={styles.fields}>
          {question.mode === "url" ? (
            <p className={styles.url}>
              The tool asks you to open{" "}
              {safeUrl ? (
                <a href={safeUrl} target="_blank" rel="noopener noreferrer">
                  {safeUrl}
                </a>
              ) : (
                <code>{question.url}</code>
              )}
              , finish there, and then say so here. Check the address before you open it.
            </p>
          ) : (
            question.fields.map((field) => <QuestionFieldInput key={field.name} field={field} id={`${id}-${field.name}`} error={fieldErrors[field.name]} />)
          )}
          <div className={styles.actions}>
            <button type="submit" className="button" disabled={pending}>
              {question.mode === "url" ? "I have finished there" : "Submit answer"}
            </button>
            <button type="button" className="button" disabled={pending} onClick={() => send({ action: "decline" }, "Declined")}>
              Decline
            </button>
            <button type="button" className="button" disabled={pending} onClick={() => send({ action: "cancel" }, "Cancelled")} aria-label="Cancel the question (dismiss it without choosing)">
              Cancel
            </button>
          </div>
          {error ? (
            <p role="alert" className={styles.fieldError}>
              {error}
            </p>
          ) : null}
        </form>
      )}
    </article>
  );
}
