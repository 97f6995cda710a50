/**
 * The edit distance between two words: insertions, deletions, substitutions
 * and swaps of two neighbouring letters (the commonest typo) each count one.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      distance[i][j] = Math.min(distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance[i][j] = Math.min(distance[i][j], distance[i - 2][j - 2] + 1);
    }
  }
  return distance[a.length][b.length];
}

/**
 * The closest candidate to a misspelt word, or undefined when none is close.
 * Case differences are forgiven first (`toolexchange` → `toolExchange`).
 *
 * @example didYouMean("stuckAfterRepeat", ["maxTurns", "stuckAfterRepeats"]) // "stuckAfterRepeats"
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const sameCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  // Allow about one edit in three letters (at least one), so short words get only near misses.
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** " (did you mean X?)" or "" — for appending to a message. */
export function didYouMeanSuffix(word: string, candidates: readonly string[]): string {
  const suggestion = didYouMean(word, candidates);
  return suggestion ? ` (did you mean '${suggestion}'?)` : "";
}
