/** The edit distance between two words (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length];
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
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
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
