import type { AttentionRequest } from "@/lib/trace/browser";

/** On a run that waits for input: what the tool asked, and where to answer it. */
export function QuestionNotice({ runId, attention }: { runId: string; attention: AttentionRequest }) {
  return (
    <section className="card" aria-labelledby="question-heading">
      <h2 id="question-heading">
        Waiting for input: {attention.server}/{attention.tool}
      </h2>
      <p>{attention.message}</p>
      <a className="button" href={`/questions?run=${encodeURIComponent(runId)}`}>
        Answer the question
      </a>
    </section>
  );
}
