/**
 * How much a query term says about the job, 0–1, from how common the word
 * is in everyday English: "make", "get", "give" or "new" describe almost
 * any job, so they count less than "passphrase" or "forecast". A tool
 * catalogue alone cannot tell this: in 200 tools "make" may be as rare as
 * "forecast", and BM25's IDF would then rank `make_call` first for "make me
 * a password".
 */
export type TermSpecificity = (term: string) => number;

/** Every term counts fully: plain BM25. */
export const uniformSpecificity: TermSpecificity = () => 1;

/** Words at most this common count fully; see specificityFromCommonness. */
const fullWeightCommonness = 300;
const lowestSpecificity = 0.4;

/**
 * Reads the `stem:count stem:count` list of common words (the generated
 * WordNet data's `common` field) into a specificity: 1 up to 300, then a
 * quarter less for each doubling, never under 0.4.
 *
 * @example parseSpecificity("make:4115 find:901")("make") // 0.4
 */
export function parseSpecificity(text: string): TermSpecificity {
  const counts = new Map<string, number>();
  for (const entry of text.split(" ")) {
    const colon = entry.lastIndexOf(":");
    if (colon > 0) counts.set(entry.slice(0, colon), Number(entry.slice(colon + 1)));
  }
  return (term) => specificityFromCommonness(counts.get(term) ?? 0);
}

export function specificityFromCommonness(commonness: number): number {
  if (commonness <= fullWeightCommonness) return 1;
  return Math.max(lowestSpecificity, 1 - 0.25 * Math.log2(commonness / fullWeightCommonness));
}
