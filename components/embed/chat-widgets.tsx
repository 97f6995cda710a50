"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import type { ChatWidgetView, WidgetAnswer, WidgetForm } from "./widget-types";

interface WidgetThread {
  id: string;
  title: string;
  ownerId: string;
  updatedAt: string;
  turns: number;
}

export interface ChatWidgetsProps {
  workflowId: string;
  widgets: ChatWidgetView[];
  threads: Record<string, WidgetThread[]>;
  canDelete: boolean;
  actions: {
    create(workflowId: string, form: WidgetForm): Promise<WidgetAnswer>;
    update(widgetId: string, form: WidgetForm): Promise<WidgetAnswer>;
    setEnabled(widgetId: string, enabled: boolean): Promise<WidgetAnswer>;
    rotate(widgetId: string): Promise<WidgetAnswer>;
    remove(widgetId: string): Promise<{ ok: true; message: string } | { ok: false; error: string }>;
  };
}

/** The snippets a host page pastes: the script tag (it inserts the frame) or the frame itself. */
export function widgetSnippets(appOrigin: string, widgetId: string, token: string): { script: string; iframe: string } {
  const script = `<script src="${appOrigin}/embed.js" data-widget="${widgetId}" data-token="${token}" async></script>`;
  const iframe = `<iframe src="${appOrigin}/embed/${widgetId}#token=${token}" title="Chat" style="width:380px;height:560px;border:1px solid #ccc;border-radius:8px"></iframe>`;
  return { script, iframe };
}

/** The widgets of a workflow: create, copy the snippet (once, with its token), edit, rotate, turn off, delete. */
export function ChatWidgets(props: ChatWidgetsProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [notice, setNotice] = useState<{ text: string; error: boolean; field?: string } | null>(null);
  const [issued, setIssued] = useState<{ widgetId: string; token: string } | null>(null);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);

  const run = (work: () => Promise<WidgetAnswer | { ok: true; message: string } | { ok: false; error: string }>) =>
    startTransition(async () => {
      const answer = await work();
      if (answer.ok) {
        setNotice({ text: answer.message, error: false });
        if ("token" in answer && answer.token && "widget" in answer) setIssued({ widgetId: answer.widget.id, token: answer.token });
        router.refresh();
      } else setNotice({ text: answer.error, error: true, field: "field" in answer ? answer.field : undefined });
    });

  return (
    <div className="chat-widgets">
      {notice ? (
        <p role={notice.error ? "alert" : "status"} className={notice.error ? "form-error" : "form-notice"}>
          {notice.text}
        </p>
      ) : null}
      {issued ? <IssuedSnippet origin={origin} widgetId={issued.widgetId} token={issued.token} /> : null}
      <section aria-labelledby="new-widget">
        <h2 id="new-widget">New widget</h2>
        <WidgetFields
          idPrefix="new"
          initial={{ name: "", origins: "", perMinute: 10, overallPerMinute: 100 }}
          submitLabel="Create widget"
          pending={pending}
          invalidField={notice?.error ? notice.field : undefined}
          onSubmit={(form) => run(() => props.actions.create(props.workflowId, form))}
        />
      </section>
      <section aria-labelledby="widget-list">
        <h2 id="widget-list">Widgets</h2>
        {props.widgets.length === 0 ? <p>No widget yet.</p> : null}
        {props.widgets.map((widget) => (
          <article key={widget.id} className="chat-widget" aria-label={`Widget ${widget.name}`}>
            <h3>
              {widget.name} <small>({widget.enabled ? "on" : "off"} · token …{widget.tokenHint} · {widget.id})</small>
            </h3>
            <WidgetFields
              idPrefix={widget.id}
              initial={{ name: widget.name, origins: widget.origins.join("\n"), perMinute: widget.perMinute, overallPerMinute: widget.overallPerMinute }}
              submitLabel={`Save widget ${widget.name}`}
              pending={pending}
              onSubmit={(form) => run(() => props.actions.update(widget.id, form))}
            />
            <div className="widget-buttons">
              <button type="button" className="button" disabled={pending} onClick={() => run(() => props.actions.rotate(widget.id))}>
                Rotate token of {widget.name}
              </button>
              <button type="button" className="button" disabled={pending} onClick={() => run(() => props.actions.setEnabled(widget.id, !widget.enabled))}>
                {widget.enabled ? `Turn off ${widget.name}` : `Turn on ${widget.name}`}
              </button>
              {props.canDelete ? (
                <button
                  type="button"
                  className="button"
                  disabled={pending}
                  onClick={() => {
                    if (window.confirm(`Delete widget ${widget.name}? Pages that embed it stop showing the chat.`)) run(() => props.actions.remove(widget.id));
                  }}
                >
                  Delete {widget.name}
                </button>
              ) : null}
            </div>
            <h4>Visitors&apos; threads</h4>
            {(props.threads[widget.id] ?? []).length === 0 ? (
              <p>No visitor has written yet.</p>
            ) : (
              <ul aria-label={`Threads of widget ${widget.name}`}>
                {props.threads[widget.id].map((thread) => (
                  <li key={thread.id}>
                    {thread.title} · {thread.turns} {thread.turns === 1 ? "turn" : "turns"} · visitor {thread.ownerId.split(":").at(-1)} · {new Date(thread.updatedAt).toLocaleString()}
                  </li>
                ))}
              </ul>
            )}
          </article>
        ))}
      </section>
    </div>
  );
}

function IssuedSnippet({ origin, widgetId, token }: { origin: string; widgetId: string; token: string }) {
  const { script, iframe } = widgetSnippets(origin, widgetId, token);
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (what: string, text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(what),
      () => setCopied(null),
    );
  };
  return (
    <section aria-labelledby="snippet" className="widget-snippet">
      <h2 id="snippet">Snippet (shown once)</h2>
      <label>
        Script tag
        <textarea readOnly rows={3} value={script} aria-describedby="snippet-note" />
      </label>
      <button type="button" className="button" onClick={() => copy("script tag", script)}>
        Copy script tag
      </button>
      <label>
        Iframe
        <textarea readOnly rows={3} value={iframe} />
      </label>
      <button type="button" className="button" onClick={() => copy("iframe", iframe)}>
        Copy iframe
      </button>
      <p id="snippet-note">The token in it is not kept: rotate the token to get a new snippet. {copied ? `Copied the ${copied}.` : null}</p>
    </section>
  );
}

function WidgetFields(props: { idPrefix: string; initial: WidgetForm; submitLabel: string; pending: boolean; invalidField?: string; onSubmit(form: WidgetForm): void }) {
  const [form, setForm] = useState<WidgetForm>(props.initial);
  return (
    <form
      className="widget-fields"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(form);
      }}
    >
      <label>
        Name
        <input value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} aria-invalid={props.invalidField === "name"} />
      </label>
      <label>
        Allowed origins (one a line, scheme://host[:port])
        <textarea rows={3} value={form.origins} onChange={(event) => setForm({ ...form, origins: event.target.value })} aria-invalid={props.invalidField === "origins"} />
      </label>
      <label>
        Messages a visitor may send a minute
        <input type="number" min={1} max={600} value={form.perMinute} onChange={(event) => setForm({ ...form, perMinute: event.target.value })} aria-invalid={props.invalidField === "perMinute"} />
      </label>
      <label>
        Messages all visitors together may send a minute
        <input type="number" min={1} max={6000} value={form.overallPerMinute} onChange={(event) => setForm({ ...form, overallPerMinute: event.target.value })} aria-invalid={props.invalidField === "overallPerMinute"} />
      </label>
      <button type="submit" className="button" disabled={props.pending}>
        {props.submitLabel}
      </button>
    </form>
  );
}
