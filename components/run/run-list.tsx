import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";
import type { RunSummary } from "@/lib/trace/run-trace";
import type { RunTotals } from "@/lib/trace/run-totals";
import { elapsed, formatDuration, formatTokens, plural } from "./format";
import { StatusBadge } from "./status-badge";
import styles from "./run.module.css";

export interface RunListProps {
  runs: readonly RunSummary[];
  now: string;
  label: string;
  showWorkflow?: boolean;
  /** Turns and tokens by run id; the columns are left out without them. */
  totals?: Readonly<Record<string, Pick<RunTotals, "turns" | "inputTokens" | "outputTokens"> & { costUsd?: number | null }>>;
}

/** Runs as a table, the newest first; each links to its trace. */
export function RunList({ runs, now, label, showWorkflow = false, totals }: RunListProps) {
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
            <th scope="col">Duration</th>
            <th scope="col">Tool calls</th>
            {totals ? <th scope="col">Model turns</th> : null}
            {totals ? <th scope="col">Tokens</th> : null}
            {totals ? <th scope="col">Cost</th> : null}
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <th scope="row">
                <Link href={`/runs/${encodeURIComponent(run.id)}`} aria-label={`Open run ${run.id.slice(0, 8)}`}>
                  <code>{run.id.slice(0, 8)}</code>
                </Link>
              </th>
              {showWorkflow ? <td>{run.workflowName}</td> : null}
              <td>
                <StatusBadge status={run.status} waitingForApproval={run.waitingForApproval} waitingForInput={run.waitingForInput} />
                {run.error ? <span className={styles.tableError} title={run.error}>{run.error}</span> : null}
              </td>
              <td>
                <DateTime value={new Date(run.startedAt)} />
              </td>
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
