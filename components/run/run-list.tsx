"use client";

import Link from "next/link";
import { type CSSProperties, useState } from "react";
import { describeForkChange } from "@/lib/run-model/fork-change";
import { groupRunsByFork, type RunSummary, type RunTotals } from "@/lib/trace/browser";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";
import { elapsed, formatDuration, formatTokens, plural } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./run.module.css";
import { describeRunOrigin } from "@/lib/run-model/run-origin";

export interface RunListProps {
  runs: readonly RunSummary[];
  now: string;
  label: string;
  showWorkflow?: boolean;
  /** Turns and tokens by run id; the columns are left out without them. */
  totals?: Readonly<Record<string, Pick<RunTotals, "turns" | "inputTokens" | "outputTokens"> & { costUsd?: number | null }>>;
}

/**
 * Runs as a table, the newest first; each links to its trace. A run's forks
 * sit indented beneath it, each saying at which step and with what change;
 * the parent's "Hide forks" button folds them away.
 */
export function RunList({ runs, now, label, showWorkflow = false, totals }: RunListProps) {
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set());
  if (runs.length === 0) {
    return (
      <EmptyState title="No runs yet">
        <p>Runs appear here as soon as they start, each with its full trace.</p>
      </EmptyState>
    );
  }
  return (
    <div className="table-scroll">
      <table className={styles.runTable}>
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            {showWorkflow ? <th scope="col">Workflow</th> : null}
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col">Started by</th>
            <th scope="col">Duration</th>
            <th scope="col">Tool calls</th>
            {totals ? <th scope="col">Model turns</th> : null}
            {totals ? <th scope="col">Tokens</th> : null}
            {totals ? <th scope="col">Cost</th> : null}
          </tr>
        </thead>
        <tbody>
          {visibleRows(groupRunsByFork(runs), folded).map(({ run, depth, forkCount }) => (
            <tr key={run.id} className={depth > 0 ? styles.forkRow : undefined} style={depth > 0 ? ({ "--fork-depth": depth } as CSSProperties) : undefined}>
              <th scope="row">
                {depth > 0 ? <span aria-hidden="true">↳ </span> : null}
                <Link href={`/runs/${encodeURIComponent(run.id)}`} aria-label={`Open run ${run.id.slice(0, 8)}`}>
                  <code>{run.id.slice(0, 8)}</code>
                </Link>
                {forkCount > 0 ? (
                  <button
                    type="button"
                    className={styles.forkToggle}
                    aria-expanded={!folded.has(run.id)}
                    aria-label={`${folded.has(run.id) ? "Show" : "Hide"} ${forkCount === 1 ? "the fork" : `the ${forkCount} forks`} of run ${run.id.slice(0, 8)}`}
                    onClick={() => setFolded((current) => toggled(current, run.id))}
                  >
                    {folded.has(run.id) ? "▸" : "▾"} {plural(forkCount, "fork")}
                  </button>
                ) : null}
                {run.forkedFrom ? (
                  <span className={styles.forkNote}>
                    {depth > 0 ? "fork" : `fork of ${run.forkedFrom.runId.slice(0, 8)}`} at <code>{run.forkedFrom.at}</code> {describeForkChange(run.forkedFrom.change ?? null)}
                  </span>
                ) : null}
              </th>
              {showWorkflow ? <td>{run.workflowName}</td> : null}
              <td>
                <StatusBadge status={run.status} waitingForApproval={run.waitingForApproval} waitingForInput={run.waitingForInput} />
                {run.error ? <span className={styles.tableError} title={run.error}>{run.error}</span> : null}
              </td>
              <td>
                <DateTime value={new Date(run.startedAt)} />
              </td>
              <td>{run.origin ? describeRunOrigin(run.origin) : <span className="muted">–</span>}</td>
              <td>{formatDuration(elapsed(run.startedAt, run.endedAt, now))}</td>
              <td>{plural(run.toolCallCount, "call")}</td>
              {totals ? <td>{totals[run.id] ? plural(totals[run.id].turns, "turn") : "–"}</td> : null}
              {totals ? <td>{(totals[run.id] && formatTokens(totals[run.id].inputTokens, totals[run.id].outputTokens)?.replace(" tokens", "")) ?? "–"}</td> : null}
              {totals ? <td>{totals[run.id]?.costUsd != null ? `$${totals[run.id].costUsd!.toFixed(4)}` : "–"}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The grouped rows minus the forks under a folded run. */
function visibleRows<T extends { run: { id: string }; parentId: string | null }>(rows: readonly T[], folded: ReadonlySet<string>): T[] {
  const hidden = new Set<string>();
  return rows.filter((row) => {
    if (row.parentId && (folded.has(row.parentId) || hidden.has(row.parentId))) {
      hidden.add(row.run.id);
      return false;
    }
    return true;
  });
}

function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
