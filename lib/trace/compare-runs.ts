import { diffRuns, type DiffSource, type RunDiff } from "./run-diff";

/** Why two runs cannot be compared, with the field (`a` or `b`) at fault. */
export interface CompareProblem {
  code: "run-id-missing" | "same-run" | "run-not-found";
  field: "a" | "b";
  message: string;
}

export type CompareOutcome = { ok: true; diff: RunDiff } | { ok: false; problem: CompareProblem };

/**
 * Checks a request to compare run `a` with run `b`, reads both through
 * `read` (null: no such run) and diffs them. The compare page and
 * `npm run workflow -- diff` share it, so both refuse the same things in
 * the same words.
 *
 * @example
 * await compareRuns("run-1", "run-2", (id) => readWholeRunTrace(db, id))
 */
export async function compareRuns(aId: string | undefined, bId: string | undefined, read: (runId: string) => Promise<DiffSource | null>): Promise<CompareOutcome> {
  const a = aId?.trim() ?? "";
  const b = bId?.trim() ?? "";
  if (!a) return refuse("run-id-missing", "a", "Name the first run to compare (a=RUN_ID).");
  if (!b) return refuse("run-id-missing", "b", "Name the second run to compare (b=RUN_ID).");
  if (a === b) return refuse("same-run", "b", `Both sides are run "${a}": choose another run to compare it with.`);
  const [traceA, traceB] = await Promise.all([read(a), read(b)]);
  if (!traceA) return refuse("run-not-found", "a", `There is no run "${a}".`);
  if (!traceB) return refuse("run-not-found", "b", `There is no run "${b}".`);
  return { ok: true, diff: diffRuns(traceA, traceB) };
}

function refuse(code: CompareProblem["code"], field: CompareProblem["field"], message: string): CompareOutcome {
  return { ok: false, problem: { code, field, message } };
}
