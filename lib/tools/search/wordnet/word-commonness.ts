import { stem } from "../porter-stemmer";
import { isContentWord, splitWords } from "../tokenize";
import type { SenseCount, Synset } from "./parse-wordnet";

/**
 * How common each stem is: times sense-tagged in the concordances plus
 * times used in WordNet's glosses. Glosses are plain descriptive English,
 * the register of tool descriptions, so "database" or "email" count as
 * common there while "brigandine" does not.
 */
export function wordCommonness(synsets: Iterable<Synset>, senseCounts: SenseCount[]): Map<string, number> {
  const frequency = new Map<string, number>();
  const add = (word: string, count: number): void => {
    if (!/^[a-z]{2,}$/.test(word)) return;
    const key = stem(word);
    frequency.set(key, (frequency.get(key) ?? 0) + count);
  };
  for (const sense of senseCounts) add(sense.lemma, sense.tagCount);
  for (const synset of synsets) for (const word of splitWords(synset.gloss)) add(word, 1);
  return frequency;
}

/** Stems more common than this are listed in the generated data, for term specificity; rarer ones count fully anyway. */
const listedCommonness = 300;

/** `stem:count` for the common stems (not stopwords), most common first. */
export function serializeCommonWords(commonness: Map<string, number>): string {
  return [...commonness]
    .filter(([term, count]) => count > listedCommonness && isContentWord(term))
    .sort(([termA, countA], [termB, countB]) => countB - countA || (termA < termB ? -1 : 1))
    .map(([term, count]) => `${term}:${count}`)
    .join(" ");
}
