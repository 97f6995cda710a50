"use client";

import { useState } from "react";
import { JsonBlock, prettyJson } from "@/components/run/json-block";
import { ModalDialog } from "@/components/ui/modal-dialog";

/** A value in one short line: text as it is, anything else as compact JSON, cut at `limit` characters. */
export function previewText(value: unknown, limit = 80): string {
  const text = typeof value === "string" ? value : (safeJson(value) ?? String(value));
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/**
 * One named value from a run: a short preview that opens the full value in a
 * dialog on click (or Enter), as n8n's and Langflow's node outputs do.
 */
export function ValuePreview({ name, value, owner }: { name: string; value: unknown; owner: string }) {
  const [open, setOpen] = useState(false);
  const title = `${name} of ${owner}`;
  return (
    <>
      {/* Named by what it shows (the output's name and its start); the dialog's title says whose it is. */}
      <button type="button" className="value-preview nodrag" aria-haspopup="dialog" title={`Show the full value of ${title}`} onClick={() => setOpen(true)}>
        <span className="value-preview-name">{name}</span> <span className="value-preview-text">{previewText(value)}</span>
      </button>
      {open ? (
        <ModalDialog open title={`The value of ${title}`} onClose={() => setOpen(false)} wide>
          <JsonBlock value={value} label={`Full value of ${title}`} />
        </ModalDialog>
      ) : null}
    </>
  );
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
