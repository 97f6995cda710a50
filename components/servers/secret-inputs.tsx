"use client";

import { useId, useState } from "react";
import type { SecretStateName } from "./action-types";
import styles from "./servers.module.css";

interface SecretRow {
  key: number;
  name: string;
  /** The stored state, null for a secret added in this form. */
  stored: SecretStateName | null;
  replacing: boolean;
  value: string;
}

const stateLabels = { set: "set", missing: "not set", unreadable: "cannot be read: enter it again" } as const;

/**
 * The server's secrets: write-only. A stored secret shows "set" and a
 * Replace button, never its value; a new or missing one shows an empty
 * password field. Each row posts one `secretName` and one `secretValue`
 * (empty keeps the stored value); a removed row drops the secret on save.
 */
export function SecretInputs({ initial, error }: { initial: Array<{ name: string; state: SecretStateName }>; error: { field: string; message: string } | null }) {
  const [rows, setRows] = useState<SecretRow[]>(() => initial.map((secret, index) => ({ key: index, name: secret.name, stored: secret.state, replacing: false, value: "" })));
  const [nextKey, setNextKey] = useState(initial.length);
  const baseId = useId();
  const update = (key: number, change: Partial<SecretRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const rowError = (name: string) => (error && error.field === `secrets.${name}` ? error.message : null);
  const listError = error && error.field === "secrets" ? error.message : null;

  return (
    <fieldset className={styles.fieldset} aria-describedby={`${baseId}-hint${listError ? ` ${baseId}-error` : ""}`}>
      <legend>Secrets</legend>
      <p id={`${baseId}-hint`} className={styles.hint}>
        Use a secret in an env or header value as <code>{"{{ secrets.NAME }}"}</code>. Values are stored encrypted and never shown again.
      </p>
      {listError ? (
        <p id={`${baseId}-error`} className={styles.fieldError}>
          {listError}
        </p>
      ) : null}
      <ul className={styles.secretRows} aria-label="Secrets of this server">
        {rows.map((row) => {
          const nameId = `${baseId}-name-${row.key}`;
          const valueId = `${baseId}-value-${row.key}`;
          const errorId = `${baseId}-error-${row.key}`;
          const problem = rowError(row.name);
          const showValue = row.stored === null || row.stored !== "set" || row.replacing;
          const label = row.stored === null ? "Secret value" : row.stored === "set" ? `New value for ${row.name}` : `Value for ${row.name}`;
          return (
            <li key={row.key} className={styles.secretRow}>
              {row.stored === null ? (
                <div className={styles.field}>
                  <label htmlFor={nameId}>Secret name</label>
                  <input id={nameId} name="secretName" value={row.name} autoComplete="off" spellCheck={false} onChange={(event) => update(row.key, { name: event.target.value })} />
                </div>
              ) : (
                <div className={styles.secretName}>
                  <input type="hidden" name="secretName" value={row.name} />
                  <code>{row.name}</code>
                  <span className={`badge ${row.stored === "set" ? "badge-ok" : "badge-warning"}`}>{stateLabels[row.stored]}</span>
                </div>
              )}
              {showValue ? (
                <div className={styles.field}>
                  <label htmlFor={valueId}>{label}</label>
                  <input
                    id={valueId}
                    name="secretValue"
                    type="password"
                    autoComplete="new-password"
                    value={row.value}
                    onChange={(event) => update(row.key, { value: event.target.value })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errorId : undefined}
                  />
                </div>
              ) : (
                <input type="hidden" name="secretValue" value="" />
              )}
              <div className={styles.buttonRow}>
                {row.stored === "set" && !row.replacing ? (
                  <button type="button" className={styles.secondaryButton} onClick={() => update(row.key, { replacing: true })} aria-label={`Replace ${row.name}`}>
                    Replace
                  </button>
                ) : null}
                {row.stored === "set" && row.replacing ? (
                  <button type="button" className={styles.secondaryButton} onClick={() => update(row.key, { replacing: false, value: "" })} aria-label={`Keep the stored ${row.name}`}>
                    Keep stored value
                  </button>
                ) : null}
                <button
                  type="button"
                  className={styles.secondaryButton}
                  onClick={() => setRows((current) => current.filter((item) => item.key !== row.key))}
                  aria-label={`Remove secret ${row.name || "(unnamed)"}`}
                >
                  Remove
                </button>
              </div>
              {problem ? (
                <p id={errorId} className={styles.fieldError}>
                  {problem}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        className={styles.secondaryButton}
        onClick={() => {
          setRows((current) => [...current, { key: nextKey, name: "", stored: null, replacing: false, value: "" }]);
          setNextKey(nextKey + 1);
        }}
      >
        Add a secret
      </button>
    </fieldset>
  );
}
