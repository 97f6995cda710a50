/** A document and its score. */
export interface ScoredDocument {
  document: number;
  score: number;
}

/**
 * The `k` best documents, highest score first; equal scores are ordered by
 * `tieRank` (lower first), so the result never depends on the order
 * documents were scored in. Keeps a small sorted buffer: O(n·k) for the
 * few results a search returns.
 */
export function topMatches(documents: number[], scoreOf: (document: number) => number, k: number, tieRank: Int32Array): ScoredDocument[] {
  const best: ScoredDocument[] = [];
  const ranksBefore = (a: ScoredDocument, b: ScoredDocument): boolean =>
    a.score > b.score || (a.score === b.score && tieRank[a.document] < tieRank[b.document]);
  for (const document of documents) {
    const candidate = { document, score: scoreOf(document) };
    if (best.length === k && !ranksBefore(candidate, best[k - 1])) continue;
    let position = best.length === k ? k - 1 : best.length;
    while (position > 0 && ranksBefore(candidate, best[position - 1])) {
      best[position] = best[position - 1];
      position--;
    }
    best[position] = candidate;
  }
  return best;
}
