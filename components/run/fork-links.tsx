import Link from "next/link";
import { StatusBadge } from "./status-badge";
import type { RunStatus } from "@/lib/trace/browser";
import { describeForkChange, type ForkChange } from "@/lib/run-model/fork-change";
import styles from "./run.module.css";

/** Where a run came from (it is a fork), and the runs forked from it, each with what it changed. */
export interface ForkLinksView {
  parent: { runId: string; at: string; change?: ForkChange | null } | null;
  forks: Array<{ runId: string; at: string; status: string; startedAt: string; change?: ForkChange | null }>;
}

/** "Forked from run X at step Y" on a fork (with "Compare with parent"), and the forks of a run on its parent. */
export function ForkLinksNotice({ runId, links }: { runId: string; links: ForkLinksView }) {
  if (!links.parent && links.forks.length === 0) return null;
  return (
    <section className={`card ${styles.forkLinks}`} aria-label="Forks">
      {links.parent ? (
        <p>
          Forked from run <Link href={`/runs/${links.parent.runId}`}>{links.parent.runId.slice(0, 8)}</Link> at step <code>{links.parent.at}</code>{" "}
          <span className={styles.forkChange}>{describeForkChange(links.parent.change ?? null)}</span> ·{" "}
          <Link href={`/runs/compare?a=${encodeURIComponent(links.parent.runId)}&b=${encodeURIComponent(runId)}`}>Compare with parent</Link>
        </p>
      ) : null}
      {links.forks.length > 0 ? (
        <>
          <p>Forked {links.forks.length === 1 ? "once" : `${links.forks.length} times`}:</p>
          <ul className={styles.forkLinks}>
            {links.forks.map((fork) => (
              <li key={fork.runId}>
                <Link href={`/runs/${fork.runId}`}>Run {fork.runId.slice(0, 8)}</Link> at step <code>{fork.at}</code> <span className={styles.forkChange}>{describeForkChange(fork.change ?? null)}</span> <StatusBadge status={fork.status as RunStatus} /> ·{" "}
                <Link href={`/runs/compare?a=${encodeURIComponent(runId)}&b=${encodeURIComponent(fork.runId)}`} aria-label={`Compare with fork ${fork.runId.slice(0, 8)}`}>
                  Compare
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
