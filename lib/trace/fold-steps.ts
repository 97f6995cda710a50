import type { StepPair } from "./run-diff";

/** What a compare table shows: a pair of steps, or a run of identical pairs folded into one line. */
export type FoldedRow = { kind: "pair"; index: number; pair: StepPair } | { kind: "folded"; from: number; count: number; firstKey: string; lastKey: string };

/**
 * Folds long runs of identical pairs, so two long runs that part at one
 * step show that step and its neighbours, not thousands of "same" rows:
 * a run of identical pairs keeps `context` pairs at each end and folds
 * the middle when that folds at least three (fewer would save no lines). Pure.
 *
 * @example
 * foldSameSteps(pairs, 1) // [pair 0, { kind: "folded", count: 97, … }, pair 98, pair 99 (changed)]
 */
export function foldSameSteps(pairs: readonly StepPair[], context = 1): FoldedRow[] {
  const rows: FoldedRow[] = [];
  let index = 0;
  while (index < pairs.length) {
    if (pairs[index].state !== "same") {
      rows.push({ kind: "pair", index, pair: pairs[index] });
      index += 1;
      continue;
    }
    let end = index;
    while (end < pairs.length && pairs[end].state === "same") end += 1;
    const length = end - index;
    if (length - 2 * context < 3) {
      for (let at = index; at < end; at += 1) rows.push({ kind: "pair", index: at, pair: pairs[at] });
    } else {
      for (let at = index; at < index + context; at += 1) rows.push({ kind: "pair", index: at, pair: pairs[at] });
      const from = index + context;
      const count = length - 2 * context;
      rows.push({ kind: "folded", from, count, firstKey: pairs[from].key, lastKey: pairs[from + count - 1].key });
      for (let at = end - context; at < end; at += 1) rows.push({ kind: "pair", index: at, pair: pairs[at] });
    }
    index = end;
  }
  return rows;
}
