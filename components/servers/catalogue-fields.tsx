"use client";

import { FormField } from "./form-field";
import type { CatalogueView } from "./server-view";
import styles from "./servers.module.css";

/**
 * A stdio server as a choice from the stdio catalogue the machine's
 * administrator wrote: the entry, then only its declared parameters and
 * environment variables. There is no command line to type.
 */
export function CatalogueFields({
  idPrefix,
  catalogue,
  chosen,
  parameters,
  env,
  onChoose,
  onParameter,
  onEnv,
  errorFor,
}: {
  idPrefix: string;
  catalogue: CatalogueView;
  chosen: string;
  parameters: Record<string, string>;
  env: Record<string, string>;
  onChoose(id: string): void;
  onParameter(name: string, value: string): void;
  onEnv(name: string, value: string): void;
  /** The refusal message for a field (`catalogue`, `parameters.root`, `env.API_TOKEN`), if any. */
  errorFor(field: string): string | null;
}) {
  const choice = catalogue.choices.find((candidate) => candidate.id === chosen);
  const catalogueError = errorFor("catalogue") ?? errorFor("command");
  return (
    <fieldset className={styles.fieldset}>
      <legend>Program</legend>
      <p className={styles.runsProgram} role="note">
        <strong>This runs a program on the server</strong>, as the account Switchboard runs under. Only the programs in this machine&apos;s stdio catalogue can run (
        <code>{catalogue.file}</code>, written by its administrator); you choose one and fill in what it declares.
      </p>
      {catalogue.problem ? (
        <p className="notice notice-error" role="alert">
          The stdio catalogue is refused: {catalogue.problem}
        </p>
      ) : null}
      <div className={styles.field}>
        <label htmlFor={`${idPrefix}-catalogue`}>Catalogue entry</label>
        <select
          id={`${idPrefix}-catalogue`}
          name="catalogue"
          value={chosen}
          onChange={(event) => onChoose(event.target.value)}
          aria-invalid={catalogueError ? true : undefined}
          aria-describedby={[choice ? `${idPrefix}-catalogue-hint` : null, catalogueError ? `${idPrefix}-catalogue-error` : null].filter(Boolean).join(" ") || undefined}
        >
          <option value="">Choose a program…</option>
          {catalogue.choices.map((candidate) => (
            <option key={candidate.id} value={candidate.id} disabled={!candidate.available}>
              {candidate.title}
              {candidate.available ? "" : " (not installed)"}
            </option>
          ))}
        </select>
        {choice ? (
          <div id={`${idPrefix}-catalogue-hint`} className={styles.hint}>
            {choice.description ? <p>{choice.description}</p> : null}
            <p>
              Runs <code>{choice.commandLine}</code>
              {choice.confined ? <> — confined ({choice.confined})</> : <> — not confined</>}.
            </p>
          </div>
        ) : null}
        {catalogueError ? (
          <p id={`${idPrefix}-catalogue-error`} className={styles.fieldError}>
            {catalogueError}
          </p>
        ) : null}
      </div>
      {choice?.parameters.map((parameter) => (
        <FormField
          key={parameter.name}
          idPrefix={idPrefix}
          name={`parameters.${parameter.name}`}
          formName={`parameter.${parameter.name}`}
          label={parameter.title}
          value={parameters[parameter.name] ?? parameter.defaultValue}
          onValue={(value) => onParameter(parameter.name, value)}
          hint={[parameter.description, parameter.hint].filter(Boolean).join(" ")}
          error={errorFor(`parameters.${parameter.name}`)}
          spellCheck={false}
          autoComplete="off"
        />
      ))}
      {choice?.env.map((variable) => (
        <FormField
          key={variable.name}
          idPrefix={idPrefix}
          name={`env.${variable.name}`}
          label={`Environment: ${variable.name}`}
          value={env[variable.name] ?? ""}
          onValue={(value) => onEnv(variable.name, value)}
          hint={`${variable.description ? `${variable.description} ` : ""}Optional. A secret goes here as {{ secrets.NAME }}.`}
          error={errorFor(`env.${variable.name}`)}
          spellCheck={false}
          autoComplete="off"
        />
      ))}
    </fieldset>
  );
}
