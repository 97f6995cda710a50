"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * Uploads a dataset file (JSONL or CSV): the file is sent as it is and read
 * by the server as it streams in, so a large file never sits whole in
 * memory on either side. A malformed row is named with file:line.
 */
export function DatasetUpload({ workflowId }: { workflowId: string }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="toolbar-form"
      aria-label="Upload a dataset"
      onSubmit={async (event) => {
        event.preventDefault();
        const file = (event.currentTarget.elements.namedItem("dataset") as HTMLInputElement).files?.[0];
        if (!file) {
          setMessage({ kind: "error", text: "Choose a .jsonl or .csv file first." });
          return;
        }
        setPending(true);
        try {
          const response = await fetch(`/workflows/${encodeURIComponent(workflowId)}/tests/datasets?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file, headers: { "content-type": "application/octet-stream" } });
          const answer = (await response.json()) as { error?: string; existing?: boolean; dataset?: { name: string; rowCount: number } };
          if (!response.ok || !answer.dataset) setMessage({ kind: "error", text: answer.error ?? `The upload was refused (${response.status}).` });
          else {
            setMessage({ kind: "ok", text: answer.existing ? `${answer.dataset.name} was uploaded before: its ${answer.dataset.rowCount} rows are kept.` : `${answer.dataset.name}: ${answer.dataset.rowCount} rows stored.` });
            router.refresh();
          }
        } catch (error) {
          setMessage({ kind: "error", text: `The upload did not reach the server: ${(error as Error).message}` });
        } finally {
          setPending(false);
        }
      }}
    >
      <label className="form-field-inline">
        Dataset file (JSONL or CSV){" "}
        <input type="file" name="dataset" accept=".jsonl,.ndjson,.csv,application/x-ndjson,text/csv" />
      </label>
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Uploading…" : "Upload dataset"}
      </button>
      {message ? (
        <p className={message.kind === "error" ? "field-error" : "notice-ok"} role={message.kind === "error" ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
