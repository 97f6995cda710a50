import type { IndexEntry, SenseCount } from "./parse-wordnet";

/** How much a word, in one of its synsets, stands for that word as people use it: 0–1. */
export type SenseSalience = (lemma: string, synsetKey: string) => number;

/**
 * Sense salience from WordNet's own frequency data: the sense's rank for its
 * part of speech (`rankWeights`, first sense first; senses past the list
 * count 0), times the square root of its tag count's share of the word's
 * most tagged sense over all parts of speech (add-one smoothed). So "out"
 * as "taboo", or "page" as a boy servant, count little even where WordNet
 * lists them first for their part of speech. Untagged words fall back to
 * rank alone.
 */
export function senseSalience(entries: IndexEntry[], senseCounts: SenseCount[], rankWeights: number[]): SenseSalience {
  const tags = new Map<string, number>();
  const mostTagged = new Map<string, number>();
  for (const sense of senseCounts) {
    tags.set(`${sense.lemma}|${sense.synsetKey}`, sense.tagCount);
    mostTagged.set(sense.lemma, Math.max(mostTagged.get(sense.lemma) ?? 0, sense.tagCount));
  }
  const ranks = new Map<string, number>();
  for (const entry of entries) entry.synsetKeys.forEach((key, rank) => ranks.set(`${entry.lemma}|${key}`, rank));
  return (lemma, synsetKey) => {
    const key = `${lemma}|${synsetKey}`;
    const rankWeight = rankWeights[ranks.get(key) ?? rankWeights.length] ?? 0;
    return rankWeight * Math.sqrt(((tags.get(key) ?? 0) + 1) / ((mostTagged.get(lemma) ?? 0) + 1));
  };
}
