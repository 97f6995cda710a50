"use client";

import { useId, useState, useTransition } from "react";
import { approvalChoices, choiceOf } from "@/components/inspector/approval-choice";
import type { ActionResult } from "./action-types";
import styles from "./servers.module.css";

export type SaveServerApproval = (id: string, form: { policy: string; tools: string }) => Promise<ActionResult<{ message: string }>>;

/** What the page knows of the stored defaults: the server-wide policy and the per-tool ones, as stored. */
export interface ServerApprovalValue {
  policy?: unknown;
  tools?: Record<string, unknown>;
}

/**
 * A registry server's default approval policies: one choice for every tool
 * of the server (the inspector's choices), and per tool as JSON. They apply
 * where a workflow wires this server and its edge sets no policy of its
 * own; the canvas shows them on the edge as "from server default".
 */
export function ServerApprovalForm({ serverId, serverName, value, save }: { serverId: string; serverName: string; value: ServerApprovalValue | undefined; save: SaveServerApproval }) {
  const id = useId();
  const current = choiceOf(value?.policy);
  const [choice, setChoice] = useState(current.value);
  const [tools, setTools] = useState(value?.tools && Object.keys(value.tools).length ? JSON.stringify(value.tools, null, 2) : "");
  const [result, setResult] = useState<ActionResult<{ message: string }> | null>(null);
  const [pending, startTransition] = useTransition();
  const failed = result && !result.ok ? result : null;

  const submit = () =>
    startTransition(async () => {
      const chosen = choice === "custom" ? value?.policy : approvalChoices.find((candidate) => candidate.value === choice)?.policy;
      setResult(await save(serverId, { policy: chosen === undefined ? "" : JSON.stringify(chosen), tools }));
    });

  return (
    <section className={styles.tools} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Approval defaults</h2>
      <p className={styles.hint}>
        What happens when an agent calls a tool of {serverName}, in every workflow that wires this server without a policy on its edge (an edge&apos;s or agent&apos;s own policy wins).
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className={styles.field}>
          <label htmlFor={`${id}-policy`}>Every tool of {serverName}</label>
          <select id={`${id}-policy`} value={choice} onChange={(event) => setChoice(event.target.value)} aria-invalid={failed?.field === "policy" ? true : undefined}>
            {current.value === "custom" ? <option value="custom">{current.label}</option> : null}
            {approvalChoices.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value === "" ? "No server default (the workflow default: ask when outside content flows into a tool that writes)" : option.label}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-tools`}>Per tool (JSON, wins over the above)</label>
          <p id={`${id}-tools-hint`} className={styles.hint}>
            Tool name to policy, e.g. <code>{'{ "send_email": "ask", "list_drafts": "allow", "merge": { "decide": "rules", "destructive": "deny" } }'}</code>
          </p>
          <textarea
            id={`${id}-tools`}
            rows={4}
            value={tools}
            onChange={(event) => setTools(event.target.value)}
            aria-describedby={`${id}-tools-hint`}
            aria-invalid={failed?.field?.startsWith("tools") ? true : undefined}
          />
        </div>
        <div className={styles.buttonRow}>
          <button type="submit" className={styles.secondaryButton} disabled={pending} aria-label={`Save approval defaults of ${serverName}`}>
            {pending ? "Saving…" : "Save approval defaults"}
          </button>
        </div>
        <p role="status" className={failed ? styles.resultError : styles.resultOk}>
          {result ? (result.ok ? result.message : result.error) : ""}
        </p>
      </form>
    </section>
  );
}

/** The stored defaults in words, for people who may not change them. */
export function ServerApprovalSummary({ value }: { value: ServerApprovalValue | undefined }) {
  const tools = Object.entries(value?.tools ?? {});
  return (
    <section className={styles.tools} aria-label="Approval defaults">
      <h2>Approval defaults</h2>
      <p>Every tool: {value?.policy === undefined ? "no server default (the workflow default applies)" : choiceOf(value.policy).label}</p>
      {tools.length ? (
        <ul>
          {tools.map(([tool, policy]) => (
            <li key={tool}>
              <code>{tool}</code>: {choiceOf(policy).label}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
