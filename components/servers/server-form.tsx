"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef, useState } from "react";
import type { FormState, SecretStateName, ServerActions } from "./action-types";
import { FormField } from "./form-field";
import { SecretInputs } from "./secret-inputs";
import { CatalogueFields } from "./catalogue-fields";
import type { CatalogueView, ServerFormInitial } from "./server-view";
import styles from "./servers.module.css";
import { suggestedServerId } from "./suggested-id";

const idPrefix = "server";

/**
 * Register or edit an MCP server. Every rule is the registry's: a refusal
 * comes back as `{ error, field }` and is shown under that field (and in a
 * summary that links to it), with the field focused.
 */
export function ServerForm({
  mode,
  initial,
  secretStates,
  catalogue,
  save,
}: {
  mode: "create" | "edit";
  initial: ServerFormInitial;
  secretStates: Record<string, SecretStateName>;
  /** The stdio catalogue: the only programs a stdio server may be. */
  catalogue: CatalogueView;
  save: ServerActions["save"];
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(save, null);
  const [values, setValues] = useState(initial);
  const summaryRef = useRef<HTMLDivElement>(null);
  // A new server's id follows its name until the person edits the id.
  const [idEdited, setIdEdited] = useState(mode === "edit" || initial.id !== "");
  const set = (name: Exclude<keyof ServerFormInitial, "parameters" | "env">) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value, ...(name === "name" && !idEdited ? { id: suggestedServerId(value) } : {}) }));
  const failure = state && !state.ok ? { field: state.field ?? "", message: state.error } : null;
  const topField = failure?.field.split(".")[0] ?? "";
  // A dotted field (parameters.root, env.API_TOKEN) has its own input; other problems show under their top-level field.
  const errorFor = (name: string) => (failure && name !== "secrets" && (failure.field === name || (!name.includes(".") && topField === name && !["parameters", "env"].includes(topField))) ? failure.message : null);

  useEffect(() => {
    if (!failure) return;
    // The field at fault gets the focus; a field this form does not show (secrets.NAME…) leaves it on the summary.
    const target = document.getElementById(`${idPrefix}-${failure.field}`) ?? document.getElementById(`${idPrefix}-${topField}`);
    (target ?? summaryRef.current)?.focus();
  }, [state]); // only when a new answer arrives

  const field = (name: Exclude<keyof ServerFormInitial, "parameters" | "env">, label: string, extra: Record<string, unknown> = {}) => (
    <FormField
      idPrefix={idPrefix}
      name={name}
      label={label}
      value={String(values[name])}
      onValue={(value) => {
        if (name === "id") setIdEdited(true);
        set(name)(value);
      }}
      error={errorFor(name)}
      {...extra}
    />
  );

  return (
    <form action={formAction} className={styles.form} aria-label={mode === "create" ? "Register a server" : `Edit ${initial.name}`} noValidate>
      <input type="hidden" name="mode" value={mode} />
      {failure ? (
        <div ref={summaryRef} tabIndex={-1} className="notice notice-error" role="alert">
          <p className="notice-title">The server was not saved</p>
          <p>
            {failure.field ? (
              <a href={`#${idPrefix}-${topField}`}>
                <code>{failure.field}</code>
              </a>
            ) : null}
            {failure.field ? ": " : ""}
            {failure.message}
          </p>
        </div>
      ) : null}

      <fieldset className={styles.fieldset}>
        <legend>Server</legend>
        {field("name", "Name", { formName: "serverName", required: true, maxLength: 100, autoComplete: "off" })}
        {field("id", "Id", {
          formName: "serverId",
          required: true,
          readOnly: mode === "edit",
          spellCheck: false,
          autoComplete: "off",
          hint: mode === "edit" ? "Workflows refer to the server by this id; it cannot change." : "How workflows refer to it: letters, digits, - and _. Suggested from the name until you change it.",
        })}
        {field("description", "Description", { multiline: true, rows: 2 })}
        <div className={styles.field}>
          <label htmlFor={`${idPrefix}-transport`}>Transport</label>
          <select
            id={`${idPrefix}-transport`}
            name="transport"
            value={values.transport}
            onChange={(event) => setValues((current) => ({ ...current, transport: event.target.value as ServerFormInitial["transport"] }))}
            aria-invalid={errorFor("transport") ? true : undefined}
            aria-describedby={errorFor("transport") ? `${idPrefix}-transport-error` : undefined}
          >
            <option value="stdio">stdio: a local process</option>
            <option value="http">Streamable HTTP</option>
            <option value="sse">SSE (older servers)</option>
          </select>
          {errorFor("transport") ? (
            <p id={`${idPrefix}-transport-error`} className={styles.fieldError}>
              {errorFor("transport")}
            </p>
          ) : null}
        </div>
        <div className={styles.checkboxField}>
          <input id={`${idPrefix}-enabled`} type="checkbox" name="enabled" checked={values.enabled} onChange={(event) => setValues((current) => ({ ...current, enabled: event.target.checked }))} />
          <label htmlFor={`${idPrefix}-enabled`}>Enabled: agents may use it</label>
        </div>
      </fieldset>

      {values.transport === "stdio" ? (
        <CatalogueFields
          idPrefix={idPrefix}
          catalogue={catalogue}
          chosen={values.catalogue}
          parameters={values.parameters}
          env={values.env}
          onChoose={(id) => setValues((current) => ({ ...current, catalogue: id, parameters: {}, env: {} }))}
          onParameter={(name, value) => setValues((current) => ({ ...current, parameters: { ...current.parameters, [name]: value } }))}
          onEnv={(name, value) => setValues((current) => ({ ...current, env: { ...current.env, [name]: value } }))}
          errorFor={errorFor}
        />
      ) : (
        <fieldset className={styles.fieldset}>
          <legend>Endpoint</legend>
          {field("url", "URL", {
            type: "url",
            spellCheck: false,
            autoComplete: "off",
            hint: "http or https. Private, loopback and cloud-metadata hosts are refused, apart from origins the operator lists in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS.",
          })}
          {field("headers", "Headers", { multiline: true, rows: 3, spellCheck: false, hint: "Name: value, one per line." })}
        </fieldset>
      )}
      {values.transport === "stdio" ? null : (
        <fieldset className={styles.fieldset}>
          <legend>OAuth</legend>
          <div className={styles.field}>
            <label htmlFor={`${idPrefix}-oauthGrant`}>Authorization</label>
            <select
              id={`${idPrefix}-oauthGrant`}
              name="oauthGrant"
              value={values.oauthGrant}
              onChange={(event) => setValues((current) => ({ ...current, oauthGrant: event.target.value }))}
              aria-invalid={errorFor("oauth") ? true : undefined}
              aria-describedby={errorFor("oauth") ? `${idPrefix}-oauth-error` : undefined}
            >
              <option value="">None (headers only)</option>
              <option value="authorization_code">OAuth: a person connects it (authorization code)</option>
              <option value="client_credentials">OAuth: machine to machine (client credentials)</option>
            </select>
            {errorFor("oauth") ? (
              <p id={`${idPrefix}-oauth-error`} className={styles.fieldError}>
                {errorFor("oauth")}
              </p>
            ) : null}
          </div>
          {values.oauthGrant ? (
            <>
              {field("oauthClientId", "OAuth client id", { spellCheck: false, autoComplete: "off", hint: values.oauthGrant === "client_credentials" ? "Required." : "Only for a client registered by hand at the provider; empty: Switchboard registers itself." })}
              {field("oauthClientSecret", "OAuth client secret (a secret's name)", { spellCheck: false, autoComplete: "off", hint: "The name of one of this server's secrets below, e.g. CLIENT_SECRET; never the value." })}
              {field("oauthScope", "OAuth scope", { spellCheck: false, autoComplete: "off", hint: "Space-separated. Empty: what the server asks for." })}
              <div className={styles.checkboxField}>
                <input
                  id={`${idPrefix}-oauthAllowIssuerMismatch`}
                  type="checkbox"
                  name="oauthAllowIssuerMismatch"
                  checked={values.oauthAllowIssuerMismatch}
                  onChange={(event) => setValues((current) => ({ ...current, oauthAllowIssuerMismatch: event.target.checked }))}
                />
                <label htmlFor={`${idPrefix}-oauthAllowIssuerMismatch`}>Accept an authorization server whose metadata names another issuer (weaker: only for a server known to do so)</label>
              </div>
            </>
          ) : null}
        </fieldset>
      )}

      <SecretInputs initial={initial.secretNames.map((name) => ({ name, state: secretStates[name] ?? "missing" }))} error={failure?.field.startsWith("secrets") ? failure : null} />

      <fieldset className={styles.fieldset}>
        <legend>Limits</legend>
        <div className={styles.fieldGrid}>
          {field("timeoutMs", "Connect timeout (ms)", { inputMode: "numeric", hint: "Default 30000." })}
          {field("maxRetries", "Connection retries", { inputMode: "numeric", hint: "Default 2, with backoff." })}
          {field("toolTimeoutMs", "Tool call timeout (ms)", { inputMode: "numeric", hint: "Empty: the run's default; 0: none." })}
          {field("maxConcurrentCalls", "Calls at once", { inputMode: "numeric", hint: "Empty: no limit." })}
        </div>
        <p className={styles.hint}>Which workflows may use this server is granted per workflow, on its canvas.</p>
        {field("allowedTools", "Allowed tools", { spellCheck: false, hint: "Tool names, separated by commas: agents get only these. Empty: every tool the server lists." })}
      </fieldset>

      <div className={styles.buttonRow}>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Saving…" : mode === "create" ? "Register server" : "Save changes"}
        </button>
        <Link href="/servers" className={styles.secondaryButton}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
