"use client";

import { type FormEvent, useId, useMemo, useState, useTransition } from "react";
import styles from "./run.module.css";

export type CaseEditTarget = { target: "outputs" } | { target: "toolCall"; key: string } | { target: "modelRequest"; step: string };
export type EditCaseAction = (fileName: string, edit: CaseEditTarget, scorer: unknown) => Promise<{ ok: true; text: string } | { ok: false; error: string; field?: string }>;

type Kind = "ignore" | "contains" | "regex" | "number" | "schema" | "judge";

const kindLabels: Record<Kind, string> = {
  ignore: "Ignore the field",
  contains: "Contains a text",
  regex: "Matches a pattern",
  number: "A number within a tolerance",
  schema: "Valid against a JSON Schema",
  judge: "A judge scores it (rubric)",
};

/** What a kept case offers to loosen: its tool calls and the agents whose model turns it recorded. */
function caseTargets(text: string): { calls: Array<{ key: string; tool: string }>; agents: string[] } {
  try {
    const parsed = JSON.parse(text) as { assertions?: { toolCalls?: Array<{ key: string; tool: string }> }; nodes?: Array<{ node: string; steps?: Array<{ kind: string }> }> };
    return {
      calls: parsed.assertions?.toolCalls ?? [],
      agents: [...new Set((parsed.nodes ?? []).filter((node) => node.steps?.some((step) => step.kind === "model-turn")).map((node) => node.node))],
    };
  } catch {
    return { calls: [], agents: [] };
  }
}

/**
 * The case editor under "Keep as test": adds one check to the kept case —
 * a loosening (ignore a field, contains, a pattern, a number within a
 * tolerance, a schema) of the End outputs, a tool call's arguments or an
 * agent's model requests, or a judge of the outputs — and saves it into the
 * case file. The server reads the changed case with the case parser first;
 * a problem names the field.
 */
export function CaseEditor({ fileName, text, edit }: { fileName: string; text: string; edit: EditCaseAction }) {
  const [current, setCurrent] = useState(text);
  const { calls, agents } = useMemo(() => caseTargets(current), [current]);
  const [target, setTarget] = useState("outputs");
  const [kind, setKind] = useState<Kind>("ignore");
  const [field, setField] = useState("");
  const [value, setValue] = useState("");
  const [threshold, setThreshold] = useState("0.7");
  const [judgeNode, setJudgeNode] = useState(agents[0] ?? "");
  const [result, setResult] = useState<{ ok: true } | { ok: false; error: string; field?: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = { target: useId(), kind: useId(), field: useId(), value: useId(), threshold: useId(), node: useId(), message: useId() };
  const judging = kind === "judge";
  const isModel = target.startsWith("modelRequest:");

  function scorer(): { ok: true; scorer: Record<string, unknown> } | { ok: false; error: string; field: string } {
    const path = field.trim() ? { path: field.trim() } : {};
    switch (kind) {
      case "ignore":
        return field.trim() ? { ok: true, scorer: { kind, path: field.trim() } } : { ok: false, error: "Name the field to ignore (a dot path, e.g. result or messages.0.content).", field: "path" };
      case "contains":
        return { ok: true, scorer: { kind, value, ...path } };
      case "regex":
        return { ok: true, scorer: { kind, pattern: value, ...path } };
      case "number":
        return { ok: true, scorer: { kind, tolerance: value.trim() === "" ? Number.NaN : Number(value), ...path } };
      case "schema":
        try {
          return { ok: true, scorer: { kind, schema: JSON.parse(value) as unknown, ...path } };
        } catch (error) {
          return { ok: false, error: `The schema is not JSON: ${(error as Error).message}`, field: "schema" };
        }
      case "judge":
        return { ok: true, scorer: { kind, rubric: value, threshold: Number(threshold), ...(judgeNode ? { modelNode: judgeNode } : {}) } };
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const made = scorer();
    if (!made.ok) return setResult(made);
    const change = target === "outputs" ? { target: "outputs" as const } : target.startsWith("toolCall:") ? { target: "toolCall" as const, key: target.slice("toolCall:".length) } : { target: "modelRequest" as const, step: target.slice("modelRequest:".length) };
    startTransition(async () => {
      const answer = await edit(fileName, change, made.scorer);
      if (answer.ok) setCurrent(answer.text);
      setResult(answer.ok ? { ok: true } : answer);
    });
  }

  const valueLabel = { ignore: null, contains: "Text it contains", regex: "Pattern (regular expression)", number: "Tolerance", schema: "JSON Schema", judge: "Rubric" }[kind];
  return (
    <form className={styles.caseEditor} aria-label="Edit the test case's assertions" onSubmit={submit}>
      <p>
        <strong>Loosen an assertion or add a judge</strong> in <code>{fileName}</code>
      </p>
      <label htmlFor={ids.target}>Applies to</label>
      <select id={ids.target} value={target} onChange={(event) => (setTarget(event.target.value), event.target.value !== "outputs" && kind === "judge" ? setKind("ignore") : undefined)}>
        <option value="outputs">The End outputs</option>
        {calls.map((call) => (
          <option key={call.key} value={`toolCall:${call.key}`}>
            Arguments of tool call {call.key} ({call.tool})
          </option>
        ))}
        {agents.map((agent) => (
          <option key={agent} value={`modelRequest:${agent}`}>
            Model requests of {agent}
          </option>
        ))}
      </select>
      <label htmlFor={ids.kind}>Check</label>
      <select id={ids.kind} value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
        {(Object.keys(kindLabels) as Kind[])
          .filter((option) => option !== "judge" || target === "outputs")
          .map((option) => (
            <option key={option} value={option}>
              {kindLabels[option]}
            </option>
          ))}
      </select>
      {judging ? null : (
        <>
          <label htmlFor={ids.field}>Field{kind === "ignore" ? "" : " (optional)"}</label>
          <input id={ids.field} value={field} placeholder={isModel ? "system" : "result"} onChange={(event) => setField(event.target.value)} aria-invalid={result?.ok === false && result.field === "path"} />
        </>
      )}
      {valueLabel ? (
        <>
          <label htmlFor={ids.value}>{valueLabel}</label>
          {kind === "schema" || kind === "judge" ? (
            <textarea id={ids.value} value={value} rows={3} onChange={(event) => setValue(event.target.value)} />
          ) : (
            <input id={ids.value} value={value} inputMode={kind === "number" ? "decimal" : undefined} onChange={(event) => setValue(event.target.value)} />
          )}
        </>
      ) : null}
      {judging ? (
        <>
          <label htmlFor={ids.threshold}>Threshold (0–1)</label>
          <input id={ids.threshold} type="number" min={0} max={1} step={0.05} value={threshold} onChange={(event) => setThreshold(event.target.value)} />
          <label htmlFor={ids.node}>Judge&apos;s model (agent node)</label>
          <select id={ids.node} value={judgeNode} onChange={(event) => setJudgeNode(event.target.value)}>
            <option value="">The first agent</option>
            {agents.map((agent) => (
              <option key={agent} value={agent}>
                {agent}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Saving…" : "Add to the case"}
      </button>
      {result?.ok ? <p aria-live="polite">Saved to {fileName}.</p> : null}
      {result && !result.ok ? (
        <p id={ids.message} role="alert" className={styles.formError}>
          {result.field ? `${result.field}: ` : ""}
          {result.error}
        </p>
      ) : null}
    </form>
  );
}
