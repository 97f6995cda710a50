"use client";

import { useState } from "react";
import type { IssuedWebhookView } from "@/components/workflows/action-types";

/** A curl line that sends the example delivery: single-quoted for a POSIX shell. */
export function curlLine(url: string, headers: Record<string, string>, body: string): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return ["curl -X POST", quote(url), ...Object.entries(headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`), `--data ${quote(body)}`].join(" ");
}

/**
 * The webhook of a Start on webhook: make its URL and secret (shown once;
 * making them again replaces the old ones), copy a curl line that sends a
 * signed example delivery, and go to the Triggers page for its deliveries.
 */
export function WebhookPanel({ workflowId, nodeId, signature, issue }: { workflowId: string; nodeId: string; signature: string; issue?: () => Promise<IssuedWebhookView> }) {
  const [issued, setIssued] = useState<Extract<IssuedWebhookView, { ok: true }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const url = issued ? `${window.location.origin}${issued.path}` : null;
  const curl = issued && url ? curlLine(url, issued.exampleHeaders, issued.exampleBody) : null;
  const make = async () => {
    if (!issue) return;
    setBusy(true);
    setError(null);
    const result = await issue();
    setBusy(false);
    setCopied(false);
    if (result.ok) setIssued(result);
    else setError(result.error);
  };
  return (
    <section className="webhook-panel" aria-label={`Webhook of ${nodeId}`}>
      <h3>Webhook</h3>
      {signature === "none" ? (
        <p className="notice-warning small" role="note">
          Signature: none. Anyone who has the URL can start runs.
        </p>
      ) : null}
      {issued && url && curl ? (
        <div className="webhook-issued">
          <p className="small">Shown once: copy them now. Making a new URL stops this one.</p>
          <label className="field">
            <span>URL</span>
            <input readOnly value={url} aria-label="Webhook URL" onFocus={(event) => event.currentTarget.select()} />
          </label>
          <label className="field">
            <span>Signing secret</span>
            <input readOnly value={issued.secret} aria-label="Webhook signing secret" onFocus={(event) => event.currentTarget.select()} />
          </label>
          <label className="field">
            <span>Example delivery ({issued.preset}, signed now)</span>
            <textarea readOnly rows={4} value={curl} aria-label="curl line" onFocus={(event) => event.currentTarget.select()} />
          </label>
          <button
            type="button"
            className="button-quiet"
            onClick={() => {
              void navigator.clipboard?.writeText(curl).then(() => setCopied(true), () => setCopied(false));
            }}
          >
            {copied ? "Copied" : "Copy curl line"}
          </button>
        </div>
      ) : (
        <p className="small">Deliveries to its URL start runs; the body, headers and query become this node&apos;s outputs.</p>
      )}
      {issue ? (
        <button type="button" onClick={() => void make()} disabled={busy} aria-describedby={error ? `${nodeId}-webhook-error` : undefined}>
          {busy ? "Making…" : issued ? "Make a new URL and secret" : "Make the webhook URL"}
        </button>
      ) : (
        <p className="small muted">An editor makes its URL.</p>
      )}
      {error ? (
        <p className="field-error" id={`${nodeId}-webhook-error`} role="alert">
          {error}
        </p>
      ) : null}
      <p className="small">
        <a href={`/workflows/${encodeURIComponent(workflowId)}/triggers`}>Deliveries and pausing</a> are on the Triggers page.
      </p>
    </section>
  );
}
