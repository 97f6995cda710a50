import type { RunSummary } from "./run-trace";

/** One row of the runs table: the run, how deep it sits under its parent, and the forks listed under it. */
export interface GroupedRun {
  run: RunSummary;
  /** 0 for a run that is not a fork (or a fork whose parent is not in the list); a fork of it 1, a fork of that fork 2, … */
  depth: number;
  /** The id of the listed run it sits under, if any. */
  parentId: string | null;
  /** The forks listed under it, all depths. */
  forkCount: number;
}

/**
 * The runs table's rows, forks under their parent: each run in the order
 * given (newest first), and beneath it the forks of it that are listed,
 * oldest first (the order they were made in), each followed by its own
 * forks. A fork whose parent is not in the list (older than the page)
 * stays at the top level, where its own row says what it was forked from.
 *
 * @example
 * groupRunsByFork([fork, parent]) // [{ run: parent, depth: 0, forkCount: 1 }, { run: fork, depth: 1, parentId: parent.id }]
 */
export function groupRunsByFork(runs: readonly RunSummary[]): GroupedRun[] {
  const listed = new Set(runs.map((run) => run.id));
  const children = new Map<string, RunSummary[]>();
  for (const run of runs) {
    const parent = run.forkedFrom?.runId;
    if (!parent || !listed.has(parent) || parent === run.id) continue;
    children.set(parent, [...(children.get(parent) ?? []), run]);
  }
  for (const forks of children.values()) forks.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  const rows: GroupedRun[] = [];
  const placed = new Set<string>();
  const place = (run: RunSummary, depth: number, parentId: string | null): number => {
    if (placed.has(run.id)) return 0;
    placed.add(run.id);
    const row: GroupedRun = { run, depth, parentId, forkCount: 0 };
    rows.push(row);
    for (const fork of children.get(run.id) ?? []) row.forkCount += 1 + place(fork, depth + 1, run.id);
    return row.forkCount;
  };
  for (const run of runs) {
    const parent = run.forkedFrom?.runId;
    if (!parent || !listed.has(parent)) place(run, 0, null);
  }
  // A cycle of forks cannot be made (a fork is newer than its parent), but a row is never lost.
  for (const run of runs) place(run, 0, null);
  return rows;
}
