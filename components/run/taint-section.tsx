import { useMemo } from "react";
import type { RunTrace } from "@/lib/trace/run-trace";
import { type TaintedTarget, type TaintOrigin, taintSummary } from "@/lib/trace/taint-summary";
import { plural } from "./format";
import styles from "./run.module.css";

export interface TaintSectionProps {
  trace: Pick<RunTrace, "taintRecords" | "toolCalls">;
  /** Shows a tool call's row in the trace, opened. */
  onShowCall: (callId: string) => void;
}

/** Long lists are cut here; the trace itself still has every call. */
const shownPerList = 100;

/**
 * The run's taint registry: which tool results brought external content in
 * (MCP tools, custom tools declared `taints: true`) and which memory keys
 * and node outputs it reached, each with the calls it came from. A source
 * opens its call in the trace.
 */
export function TaintSection({ trace, onShowCall }: TaintSectionProps) {
  const summary = useMemo(() => taintSummary(trace), [trace]);
  const sources = useMemo(() => groupByTool(summary.entries), [summary.entries]);
  const clean = summary.entries.length === 0 && summary.memoryKeys.length === 0 && summary.outputs.length === 0;
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
          <TargetList id="taint-memory" title="Memory keys" empty="No memory key was written from external content." targets={summary.memoryKeys} what="memory key" onShowCall={onShowCall} />
          <TargetList id="taint-outputs" title="Outputs" empty="No output came from external content." targets={summary.outputs} what="output" onShowCall={onShowCall} />
          <h3 id="taint-sources" className={styles.taintHeading}>
            Came in through
          </h3>
          <ul className={styles.taintList} aria-labelledby="taint-sources">
            {sources.map((group) => (
              <li key={group.key} className={styles.taintItem}>
                <SourceButton origin={group.first} onShowCall={onShowCall} />
                <span className="muted small">
                  {plural(group.count, "call")}
                  {group.first.source === "custom_tool" ? " · custom tool" : ""}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function TargetList({ id, title, empty, targets, what, onShowCall }: { id: string; title: string; empty: string; targets: TaintedTarget[]; what: string; onShowCall: (callId: string) => void }) {
  return (
    <>
      <h3 id={id} className={styles.taintHeading}>
        {title}
      </h3>
      {targets.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ul className={styles.taintList} aria-labelledby={id}>
          {targets.slice(0, shownPerList).map((target) => (
            <li key={target.id} className={styles.taintItem} aria-label={`Tainted ${what} ${target.label}`}>
              <code className={styles.taintLabel}>{target.label}</code>
              <span className="muted small">{target.kind === "memory-key" ? `written by ${target.nodeId}` : null}</span>
              <span className={styles.taintFrom}>
                from{" "}
                {target.origins.map((origin) => (
                  <SourceButton key={origin.callId} origin={origin} onShowCall={onShowCall} />
                ))}
              </span>
            </li>
          ))}
          {targets.length > shownPerList ? <li className="muted small">and {plural(targets.length - shownPerList, `more ${what}`)}</li> : null}
        </ul>
      )}
    </>
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

function groupByTool(entries: readonly TaintOrigin[]): Array<{ key: string; first: TaintOrigin; count: number }> {
  const groups = new Map<string, { key: string; first: TaintOrigin; count: number }>();
  for (const entry of entries) {
    const key = `${entry.server}\u0000${entry.tool}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { key, first: entry, count: 1 });
  }
  return [...groups.values()];
}
