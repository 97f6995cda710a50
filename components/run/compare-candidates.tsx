import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import type { RunSummary } from "@/lib/trace/browser";
import styles from "./run-compare.module.css";

/** The runs A may be compared with, one link each: the recent runs of A's workflow (any recent run when A is not among them). */
export function CompareCandidates({ a, runs }: { a: string; runs: readonly RunSummary[] }) {
  const workflowId = runs.find((run) => run.id === a)?.workflowId;
  const candidates = runs.filter((run) => run.id !== a && (workflowId === undefined || run.workflowId === workflowId)).slice(0, 10);
  if (candidates.length === 0) return <p className="muted">There is no other recent run to compare it with yet.</p>;
  return (
    <nav aria-label="Compare with a recent run" className={`card ${styles.panel}`}>
      <h2>Compare run {a.slice(0, 8)} with…</h2>
      <ul>
        {candidates.map((run) => (
          <li key={run.id}>
            <Link href={`/runs/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(run.id)}`}>
              run {run.id.slice(0, 8)}
            </Link>{" "}
            <span className="muted small">
              {run.workflowName} · {run.status} · <DateTime value={new Date(run.startedAt)} />
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}
