"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

export type StartEvaluation = (workflowId: string, datasetId: string, version: number | null) => Promise<{ ok: true; evaluationId: string; resumed: boolean } | { ok: false; error: string }>;

/** Picks a dataset and a version (or the current document) and scores the one on the other. */
export function EvaluationStartForm({
  workflowId,
  datasets,
  versions,
  start,
}: {
  workflowId: string;
  datasets: ReadonlyArray<{ id: string; name: string; rowCount: number }>;
  versions: ReadonlyArray<{ number: number; note: string }>;
  start: StartEvaluation;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      className="toolbar-form"
      aria-label="Run an evaluation"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const version = String(form.get("version") ?? "");
        startTransition(async () => {
          const result = await start(workflowId, String(form.get("dataset") ?? ""), version === "" ? null : Number(version));
          setError(result.ok ? null : result.error);
          if (result.ok) router.refresh();
        });
      }}
    >
      <label className="form-field-inline">
        Dataset{" "}
        <select name="dataset" defaultValue={datasets[0]?.id}>
          {datasets.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name} ({dataset.rowCount} rows)
            </option>
          ))}
        </select>
      </label>
      <label className="form-field-inline">
        Version{" "}
        <select name="version" defaultValue={versions.at(-1) ? String(versions.at(-1)!.number) : ""}>
          <option value="">current document</option>
          {versions.map((version) => (
            <option key={version.number} value={String(version.number)}>
              version {version.number}
              {version.note ? `: ${version.note}` : ""}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={pending || datasets.length === 0}>
        {pending ? "Starting…" : "Run evaluation"}
      </button>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
