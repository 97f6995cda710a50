"use client";

import { createContext, useContext, useEffect, useId, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import styles from "./run.module.css";

export type ForkRunAction = (runId: string, at: string, result?: string) => Promise<{ ok: true; runId: string } | { ok: false; error: string; field?: string }>;

/** A recorded step a person chose to fork at: its journal key, what it is, and what it answered. */
export interface ForkStep {
  at: string;
  what: string;
  value: unknown;
}

/** What the trace's rows need: whether the run has ended (a run still going cannot be forked) and where to say which step was chosen. */
export const ForkContext = createContext<{ ended: boolean; choose(step: ForkStep): void } | null>(null);

/** "Fork from here" on one recorded step (a tool call, a model turn, a step node): opens the fork editor above the trace. */
export function ForkButton(step: ForkStep) {
  const context = useContext(ForkContext);
  if (!context) return null;
  return (
    <button type="button" className={styles.forkButton} disabled={!context.ended} title={context.ended ? "A new run that replays this one up to here, then goes on live" : "A run can be forked once it has ended"} onClick={() => context.choose(step)} aria-label={`Fork from here: ${step.what}`}>
      Fork from here
    </button>
  );
}

/**
 * The fork editor: what the chosen step answered, as JSON to edit. Fork
 * makes a new run that replays everything up to this step without calling
 * anything, with the edit in place of the answer when one was made, and
 * goes on live; the page then follows the new run.
 */
export function ForkEditor({ runId, step, fork, onClose }: { runId: string; step: ForkStep; fork: ForkRunAction; onClose(): void }) {
  const original = JSON.stringify(step.value ?? null, null, 2);
  const [text, setText] = useState(original);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const router = useRouter();
  const editorId = useId();
  const errorId = useId();
  const editor = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    editor.current?.focus();
    editor.current?.scrollIntoView({ block: "center" });
  }, [step.at]);
  const submit = () =>
    startTransition(async () => {
      setError(null);
      const answer = await fork(runId, step.at, text === original ? undefined : text);
      if (!answer.ok) return setError(answer.error);
      router.push(`/runs/${answer.runId}`);
    });
  return (
    <section className={`card ${styles.forkPanel}`} aria-labelledby="fork-heading">
      <h2 id="fork-heading">Fork from {step.what}</h2>
      <p className="muted small">
        Step <code>{step.at}</code>. The fork replays this run up to and including this step without calling any model or tool, then goes on live.
      </p>
      <label htmlFor={editorId}>What the step answered (JSON): edit it for the fork, or leave it as recorded</label>
      <textarea ref={editor} id={editorId} className={styles.forkEditor} value={text} spellCheck={false} rows={Math.min(14, Math.max(4, original.split("\n").length))} onChange={(event) => setText(event.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} />
      <div className={styles.forkActions}>
        <button type="button" className="button" disabled={pending} onClick={submit}>
          {pending ? "Forking…" : text === original ? "Fork run" : "Fork run with this edit"}
        </button>
        <button type="button" className={styles.forkButton} disabled={pending} onClick={onClose}>
          Cancel
        </button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className={styles.runError}>
          {error}
        </p>
      ) : null}
    </section>
  );
}
