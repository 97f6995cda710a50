"use client";

import { useId, useState, useTransition } from "react";
import type { AttentionRequest } from "@/lib/trace/browser";
import { JsonBlock } from "./json-block";
import styles from "./run.module.css";

export type AttentionDecision = ({ action: "run-again" } | { action: "skip"; result: string } | { action: "fail"; reason?: string }) & { choiceKey?: string };
export type DecideAttentionAction = (runId: string, decision: AttentionDecision) => Promise<{ ok: true } | { ok: false; error: string }>;

/**
 * A needs-attention run: the call that may have run when its worker stopped,
 * and the three ways on: run it again, skip it with a result the person
 * types, or fail the run. The choice is journalled and the run resumes.
 */
export function AttentionPanel({ runId, attention, decide }: { runId: string; attention: AttentionRequest; decide: DecideAttentionAction }) {
  const [result, setResult] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const resultId = useId();
  const submit = (decision: AttentionDecision) =>
    startTransition(async () => {
      const answer = await decide(runId, { ...decision, ...(attention.choiceKey ? { choiceKey: attention.choiceKey } : {}) });
      if (!answer.ok) return setError(answer.error);
      // The run is queued again: reload to follow it from the start.
      window.location.reload();
    });
  return (
    <section className={`card ${styles.attention}`} aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention: {attention.server}/{attention.tool}</h2>
      <p>{attention.message}</p>
      <JsonBlock value={attention.arguments} label={`Arguments of ${attention.tool}`} />
      <div className={styles.attentionActions}>
        <button type="button" className="button" disabled={pending} onClick={() => submit({ action: "run-again" })}>
          Run it again
        </button>
        <button type="button" className="button" disabled={pending} onClick={() => submit({ action: "fail" })}>
          Fail the run
        </button>
      </div>
      <label htmlFor={resultId}>Or skip it: the result the call should have given (JSON, or plain text)</label>
      <textarea id={resultId} value={result} onChange={(event) => setResult(event.target.value)} rows={3} />
      <button type="button" className="button" disabled={pending} onClick={() => submit({ action: "skip", result })}>
        Skip it with this result
      </button>
      {error ? (
        <p role="alert" className={styles.runError}>
          {error}
        </p>
      ) : null}
    </section>
  );
}
