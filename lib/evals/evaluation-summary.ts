/** What the Tests page's table needs of one scored row. */
export interface RowFigures {
  /** null while the row has not been scored. */
  pass: boolean | null;
  score: number | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** One evaluation's line of the version-by-version table. */
export interface EvaluationSummary {
  /** Rows in the dataset. */
  rows: number;
  /** Rows scored so far (a refused row counts, as a failure). */
  scored: number;
  passed: number;
  /** passed / scored, 0-1; null before the first row is scored. */
  passRate: number | null;
  meanScore: number | null;
  inputTokens: number;
  outputTokens: number;
  /** In US dollars; null unless every scored row's cost is known. */
  costUsd: number | null;
  /** Run time of the scored rows (nearest rank). */
  p50Ms: number | null;
  p95Ms: number | null;
}

/**
 * The table's figures for one evaluation, from its rows' figures.
 *
 * @example
 * summarizeEvaluation([{ pass: true, score: 1, durationMs: 40, inputTokens: 10, outputTokens: 2, costUsd: null }], 2)
 * // { rows: 2, scored: 1, passed: 1, passRate: 1, meanScore: 1, p50Ms: 40, p95Ms: 40, costUsd: null, … }
 */
export function summarizeEvaluation(figures: Iterable<RowFigures>, rows: number): EvaluationSummary {
  let scored = 0;
  let passed = 0;
  let scoreSum = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | null = 0;
  const durations: number[] = [];
  for (const row of figures) {
    if (row.pass === null) continue;
    scored += 1;
    if (row.pass) passed += 1;
    scoreSum += row.score ?? 0;
    inputTokens += row.inputTokens ?? 0;
    outputTokens += row.outputTokens ?? 0;
    cost = cost === null || row.costUsd === null ? null : cost + row.costUsd;
    if (row.durationMs !== null) durations.push(row.durationMs);
  }
  durations.sort((a, b) => a - b);
  return {
    rows,
    scored,
    passed,
    passRate: scored > 0 ? passed / scored : null,
    meanScore: scored > 0 ? scoreSum / scored : null,
    inputTokens,
    outputTokens,
    costUsd: scored > 0 ? cost : null,
    p50Ms: percentile(durations, 0.5),
    p95Ms: percentile(durations, 0.95),
  };
}

/** The nearest-rank percentile of sorted values: the smallest value with at least `fraction` of them at or below it. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}
