import { combineScores, scoreAll, type Score, type ScoreContext, type Scorer } from "./scorers";

/** A row's run as scoring reads it. */
export interface EndedRun {
  status: string;
  outputs: Record<string, unknown>;
  error: string | null;
}

/** A row's verdict: the scorers' mean and whether all passed, with each scorer's own verdict. */
export interface RowScore {
  score: number;
  pass: boolean;
  scores: Array<Score & { scorer: Scorer["kind"] }>;
  /** Why the row could not be scored on its outputs (its run did not complete). */
  error: string | null;
}

/** Scorers that compare with an expected value; a row without one skips them. */
const needsExpected = new Set<Scorer["kind"]>(["exact", "number", "ignore"]);

/**
 * Scores one row's run: its End outputs against the row's expected
 * outputs, with the workflow's scorers (no scorers: the outputs must equal
 * the expected ones). A row without expected outputs is scored only by the
 * scorers that need none (contains, regex, schema, judge); with none of
 * those, a completed run passes. A run that did not complete fails, 0.
 *
 * @example await scoreRow([{ kind: "contains", value: "km", path: "result" }], undefined, { status: "completed", outputs: { result: "42 km" }, error: null }, {})
 */
export async function scoreRow(scorers: readonly Scorer[], expected: unknown, run: EndedRun, context: ScoreContext): Promise<RowScore> {
  if (run.status !== "completed") {
    const error = run.status === "needs-attention" ? "the run waits for a person (an approval or a question)" : `the run ${run.status}${run.error ? `: ${run.error}` : ""}`;
    return { score: 0, pass: false, scores: [], error };
  }
  const chosen: readonly Scorer[] = scorers.length > 0 ? scorers : [{ kind: "exact" }];
  const applied = expected === undefined ? chosen.filter((scorer) => !needsExpected.has(scorer.kind)) : chosen;
  const verdicts = await scoreAll(applied, run.outputs, expected, context);
  const overall = combineScores(verdicts);
  return { score: overall.score, pass: overall.pass, scores: verdicts.map((verdict, index) => ({ scorer: applied[index].kind, ...verdict })), error: null };
}
