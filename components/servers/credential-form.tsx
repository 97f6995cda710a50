"use client";

import { useRouter } from "next/navigation";
import { useActionState, useTransition } from "react";
import type { CredentialActions, FormState } from "./action-types";
import styles from "./servers.module.css";

/** One node credential as /credentials shows it: which fields are set and where, never a value. */
export interface CredentialView {
  nodeType: string;
  nodeTitle: string;
  name: string;
  displayName: string;
  description: string;
  required: boolean;
  fields: Array<{ name: string; state: "stored" | "environment" | "missing" }>;
  /** Where the node's manifest lets it go. */
  defaultOrigins: string[];
  /** Origins added when it was stored. */
  origins: string[];
}

const stateLabels = { stored: "set", environment: "set in the server's environment", missing: "not set" } as const;

/**
 * Enter a node credential: every field a password input that starts empty.
 * Stored fields say "set"; typing a value replaces it, leaving a field empty
 * keeps it. Clear removes what is stored (the environment fallback stays).
 */
export function CredentialForm({ credential, actions }: { credential: CredentialView; actions: CredentialActions }) {
  const router = useRouter();
  const [state, formAction, pending] = useActionState<FormState, FormData>(actions.save, null);
  const [clearing, startClear] = useTransition();
  const prefix = `credential-${credential.nodeType}-${credential.name}`;
  const stored = credential.fields.some((field) => field.state === "stored");
  const title = `${credential.displayName} (${credential.nodeTitle})`;

  return (
    <article className={`card ${styles.credentialCard}`} aria-labelledby={`${prefix}-title`}>
      <header className={styles.cardHeader}>
        <div>
          <h2 id={`${prefix}-title`} className={styles.serverName}>
            {title}
          </h2>
          <p className="muted small">
            node type <code>{credential.nodeType}</code>, read as <code>{`credentials.${credential.name}.<field>`}</code>
            {credential.required ? " · required to run" : " · optional"}
          </p>
        </div>
      </header>
      {credential.description ? <p>{credential.description}</p> : null}
      <form action={formAction} className={styles.form} aria-label={`Set ${title}`}>
        {/* Not "nodeType" or "name": an input so named would shadow the form element's own properties. */}
        <input type="hidden" name="credentialNodeType" value={credential.nodeType} />
        <input type="hidden" name="credentialName" value={credential.name} />
        {credential.fields.map((field) => {
          const id = `${prefix}-${field.name}`;
          const error = state && !state.ok && state.field === `field.${field.name}` ? state.error : null;
          return (
            <div key={field.name} className={styles.field}>
              <label htmlFor={id}>
                {field.name}{" "}
                <span className={`badge ${field.state === "missing" ? "badge-warning" : "badge-ok"}`}>{stateLabels[field.state]}</span>
              </label>
              <input
                id={id}
                name={`field.${field.name}`}
                type="password"
                autoComplete="new-password"
                placeholder={field.state === "missing" ? "" : "type to replace"}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              {error ? (
                <p id={`${id}-error`} className={styles.fieldError}>
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        <div className={styles.field}>
          <label htmlFor={`${prefix}-origins`}>Also send it to (origins, one a line)</label>
          <textarea id={`${prefix}-origins`} name="origins" rows={2} defaultValue={credential.origins.join("\n")} aria-describedby={`${prefix}-origins-hint`} />
          <p id={`${prefix}-origins-hint`}>
            It goes only to {credential.defaultOrigins.length ? credential.defaultOrigins.join(", ") : "the origins listed here"}
            {credential.defaultOrigins.length ? " and the origins listed here" : ""}; a call anywhere else is refused.
          </p>
        </div>
        <div className={styles.buttonRow}>
          <button type="submit" className="button" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </button>
          {stored ? (
            <button
              type="button"
              className={styles.dangerButton}
              disabled={clearing}
              onClick={() =>
                startClear(async () => {
                  await actions.clear(credential.nodeType, credential.name);
                  router.refresh();
                })
              }
              aria-label={`Clear the stored ${title}`}
            >
              Clear stored value
            </button>
          ) : null}
        </div>
        <p role="status" className={state ? (state.ok ? styles.resultOk : styles.resultError) : styles.resultEmpty}>
          {state ? (state.ok ? (state.message ?? "Saved.") : state.field ? "" : state.error) : ""}
        </p>
      </form>
    </article>
  );
}
