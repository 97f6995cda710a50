"use client";

import { createContext, useContext, useEffect, useId, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { stepNode } from "@/lib/run-model/fork-change";
import styles from "./run.module.css";
import type { ForkOptions } from "@/lib/runs";

export type ForkRunAction = (runId: string, at: string, result?: string, change?: { prompt?: string; model?: string; currentVersion?: boolean }) => Promise<{ ok: true; runId: string } | { ok: false; error: string; field?: string }>;

/** What the fork editor may offer beside an edited answer (read on the server; a type only here). */
export type { ForkOptions };

type ChangeKind = "answer" | "prompt" | "model" | "version";

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
 * The fork editor: what changes in the fork, chosen among what fits the
 * step. The step's answer as JSON to edit (or leave as recorded); for an
 * agent's model turn or tool call, a different system prompt or model for
 * that agent from here on; or the workflow's current saved version. Fork
 * makes a new run that replays everything up to this step without calling
 * anything and goes on live with the change; the page then follows it.
 */
export function ForkEditor({ runId, step, fork, options, onClose }: { runId: string; step: ForkStep; fork: ForkRunAction; options?: ForkOptions; onClose(): void }) {
  const original = JSON.stringify(step.value ?? null, null, 2);
  const place = stepNode(step.at);
  const isTurn = /\/t\d+$/.test(step.at);
  const agentStep = place && !place.nested && !step.at.endsWith("/step") ? options?.agents[place.nodeId] : undefined;
  const [kind, setKind] = useState<ChangeKind>("answer");
  const [text, setText] = useState(original);
  const [prompt, setPrompt] = useState(agentStep?.systemPrompt ?? "");
  const [model, setModel] = useState(agentStep?.model ?? "");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const router = useRouter();
  const editorId = useId();
  const errorId = useId();
  const choiceName = useId();
  const editor = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    editor.current?.focus();
    editor.current?.scrollIntoView({ block: "center" });
  }, [step.at]);
  const submit = () =>
    startTransition(async () => {
      setError(null);
      const answer =
        kind === "answer" ? await fork(runId, step.at, text === original ? undefined : text)
        : kind === "prompt" ? await fork(runId, step.at, undefined, { prompt })
        : kind === "model" ? await fork(runId, step.at, undefined, { model })
        : await fork(runId, step.at, undefined, { currentVersion: true });
      if (!answer.ok) return setError(answer.error);
      router.push(`/runs/${answer.runId}`);
    });
  const choices: Array<{ kind: ChangeKind; label: string }> = [
    { kind: "answer", label: "The step's answer" },
    ...(agentStep?.systemPrompt != null ? [{ kind: "prompt" as const, label: `A different system prompt for ${place!.nodeId}` }] : []),
    ...(agentStep?.model != null ? [{ kind: "model" as const, label: `A different model for ${place!.nodeId}` }] : []),
    ...(options?.currentVersion ? [{ kind: "version" as const, label: "The workflow's current saved version" }] : []),
  ];
  const invalid = error ? { "aria-invalid": true as const, "aria-describedby": errorId } : {};
  const buttonLabel = kind === "answer" ? (text === original ? "Fork run" : "Fork run with this edit") : kind === "prompt" ? "Fork run with this prompt" : kind === "model" ? "Fork run with this model" : "Fork run with the current version";
  const replayed = kind === "answer" || !isTurn ? "up to and including this step" : "up to this model turn, which is asked again";
  return (
    <section className={`card ${styles.forkPanel}`} aria-labelledby="fork-heading">
      <h2 id="fork-heading">Fork from {step.what}</h2>
      <p className="muted small">
        Step <code>{step.at}</code>. The fork replays this run {replayed}, without calling any model or tool, then goes on live{kind === "answer" ? "" : " with the change"}.
      </p>
      {choices.length > 1 ? (
        <fieldset className={styles.forkChoices}>
          <legend>What the fork changes</legend>
          {choices.map((choice) => (
            <label key={choice.kind}>
              <input type="radio" name={choiceName} value={choice.kind} checked={kind === choice.kind} onChange={() => (setKind(choice.kind), setError(null))} /> {choice.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      {kind === "answer" ? (
        <>
          <label htmlFor={editorId}>What the step answered (JSON): edit it for the fork, or leave it as recorded</label>
          <textarea ref={editor} id={editorId} className={styles.forkEditor} value={text} spellCheck={false} rows={Math.min(14, Math.max(4, original.split("\n").length))} onChange={(event) => setText(event.target.value)} {...invalid} />
        </>
      ) : kind === "prompt" ? (
        <>
          <label htmlFor={editorId}>System prompt for {place!.nodeId} from this step on</label>
          <textarea id={editorId} className={styles.forkEditor} value={prompt} rows={5} onChange={(event) => setPrompt(event.target.value)} {...invalid} />
        </>
      ) : kind === "model" ? (
        <>
          <label htmlFor={editorId}>Model for {place!.nodeId} from this step on (the provider&apos;s model id)</label>
          <input id={editorId} className={styles.forkEditor} value={model} spellCheck={false} onChange={(event) => setModel(event.target.value)} {...invalid} />
        </>
      ) : (
        <p className="small">
          The fork runs the workflow as it is saved now. Steps before this one are replayed only if their node is unchanged in it; a node changed before this step is named and nothing is created.
        </p>
      )}
      <div className={styles.forkActions}>
        <button type="button" className="button" disabled={pending} onClick={submit}>
          {pending ? "Forking…" : buttonLabel}
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
