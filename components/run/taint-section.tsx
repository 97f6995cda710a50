"use client";

import { useState } from "react";
import type { TaintOrigin, TaintOriginPage, TaintOverview, TaintTargetSummary } from "@/lib/trace/browser";
import { plural } from "./format";
import styles from "./run.module.css";

export interface TaintSectionProps {
  runId: string;
  taint: TaintOverview;
  /** Shows a tool call's row in the trace, opened. */
  onShowCall: (callId: string) => void;
}

/** Origins fetched per "show more". */
const originsPerPage = 20;

/**
 * The run's taint registry as a summary: which tools brought external
 * content in (MCP tools, custom tools declared `taints: true`) and how
 * often, and which memory keys and node outputs it reached, each with how
 * many calls it came from. A target shows its first origins; the rest are
 * paged on demand, so a target that came from 10,000 calls costs the page
 * no more than one that came from five. An origin opens its call in the trace.
 */
export function TaintSection({ runId, taint, onShowCall }: TaintSectionProps) {
  const clean = taint.sources.length === 0 && taint.memoryKeyCount === 0 && taint.outputCount === 0;
  return (
    <section className={`card ${styles.taintCard}`} aria-labelledby="taint-heading">
      <h2 id="taint-heading">Taint</h2>
      {clean ? (
        <p className="muted">Nothing in this run came from external content.</p>
      ) : (
        <>
          <p className="muted small">
            Results of MCP tools and of custom tools declared <code>taints: true</code> are external content. The model read them unchanged; here is where they went.
          </p>
          <TargetList id="taint-memory" title="Memory keys" empty="No memory key was written from external content." targets={taint.memoryKeys} count={taint.memoryKeyCount} what="memory key" runId={runId} onShowCall={onShowCall} />
          <TargetList id="taint-outputs" title="Outputs" empty="No output came from external content." targets={taint.outputs} count={taint.outputCount} what="output" runId={runId} onShowCall={onShowCall} />
          <h3 id="taint-sources" className={styles.taintHeading}>
            Came in through
          </h3>
          <ul className={styles.taintList} aria-labelledby="taint-sources">
            {taint.sources.map((source) => (
              <li key={`${source.server}\u0000${source.tool}`} className={styles.taintItem}>
                <SourceButton origin={source.first} onShowCall={onShowCall} />
                <span className="muted small">
                  {plural(source.calls, "call")}
                  {source.source === "custom_tool" ? " · custom tool" : ""}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

interface TargetListProps {
  id: string;
  title: string;
  empty: string;
  targets: readonly TaintTargetSummary[];
  count: number;
  what: string;
  runId: string;
  onShowCall: (callId: string) => void;
}

function TargetList({ id, title, empty, targets, count, what, runId, onShowCall }: TargetListProps) {
  return (
    <>
      <h3 id={id} className={styles.taintHeading}>
        {title}
      </h3>
      {targets.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ul className={styles.taintList} aria-labelledby={id}>
          {targets.map((target) => (
            <TargetItem key={target.id} target={target} what={what} runId={runId} onShowCall={onShowCall} />
          ))}
          {count > targets.length ? <li className="muted small">and {plural(count - targets.length, `more ${what}`)}</li> : null}
        </ul>
      )}
    </>
  );
}

/** One tainted target: its first origins, and the next ones a page at a time. */
function TargetItem({ target, what, runId, onShowCall }: { target: TaintTargetSummary; what: string; runId: string; onShowCall: (callId: string) => void }) {
  const [more, setMore] = useState<{ origins: TaintOrigin[]; next: string | null; loading: boolean; error: string | null }>({ origins: [], next: null, loading: false, error: null });
  const shown = [...target.firstOrigins, ...more.origins];
  const after = more.next ?? String(target.firstOrigins.length);
  const remaining = target.originCount - shown.length;
  const loadMore = async () => {
    setMore((current) => ({ ...current, loading: true, error: null }));
    try {
      const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/taint/${encodeURIComponent(target.id)}?after=${after}&limit=${originsPerPage}`, { cache: "no-store" });
      const page = (await response.json()) as TaintOriginPage | { error: string };
      if (!response.ok || "error" in page) throw new Error("error" in page ? page.error : `the server answered ${response.status}`);
      setMore((current) => ({ origins: [...current.origins, ...page.origins], next: page.next, loading: false, error: null }));
    } catch (error) {
      setMore((current) => ({ ...current, loading: false, error: (error as Error).message }));
    }
  };
  return (
    <li className={styles.taintItem} aria-label={`Tainted ${what} ${target.label}`}>
      <code className={styles.taintLabel}>{target.label}</code>
      <span className="muted small">
        {target.kind === "memory-key" ? `written by ${target.nodeId} · ` : null}from {plural(target.originCount, "call")}
      </span>
      <span className={styles.taintFrom}>
        {shown.map((origin, index) => (
          <SourceButton key={`${origin.callId}-${index}`} origin={origin} onShowCall={onShowCall} />
        ))}
        {remaining > 0 ? (
          <button type="button" className={styles.taintMore} disabled={more.loading} aria-label={`Show ${Math.min(originsPerPage, remaining)} more of the ${plural(target.originCount, "call")} ${target.label} came from`} onClick={loadMore}>
            {more.loading ? "Loading…" : `${remaining.toLocaleString("en-US")} more…`}
          </button>
        ) : null}
        {more.error ? (
          <span className={styles.rowError} role="alert">
            {more.error}
          </span>
        ) : null}
      </span>
    </li>
  );
}

/** A source as "server / tool": a button that opens its call in the trace, once the call's row is there. */
function SourceButton({ origin, onShowCall }: { origin: TaintOrigin; onShowCall: (callId: string) => void }) {
  const name = origin.server && origin.tool ? `${origin.server} / ${origin.tool}` : `call ${origin.callId.slice(0, 8)}`;
  if (!origin.inTrace) {
    return (
      <span className={styles.taintSourcePending} title="This call's row is not in the trace yet">
        {name}
      </span>
    );
  }
  return (
    <button type="button" className={styles.taintSource} aria-label={`${name}: show the call in the trace`} onClick={() => onShowCall(origin.callId)}>
      {name}
    </button>
  );
}
