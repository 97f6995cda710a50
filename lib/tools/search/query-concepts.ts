import { stem } from "./porter-stemmer";
import type { TermSpecificity } from "./term-specificity";
import type { RelatedTerm, Thesaurus } from "./thesaurus";
import { isContentWord, splitWords } from "./tokenize";

/**
 * One content word of the query with the index terms that stand for it:
 * its own stem at weight 1, then related terms at lower weights. A document
 * gets, per concept, the best of these matches, not their sum, so a word
 * with many synonyms does not outweigh a word with few.
 */
export interface QueryConcept {
  word: string;
  terms: RelatedTerm[];
}

/**
 * The concepts of a query, one per distinct stem, in query order.
 * `expansionWeight` scales the thesaurus's weights so an expanded term
 * always counts less than a term the query says itself; a concept as a
 * whole counts as much as its word is specific ("make" less than "invoice").
 *
 * @example queryConcepts("notify the engineers", { thesaurus, specificity, expansionWeight: 0.6 })
 * // [{ word: "notify", terms: [{term:"notifi",weight:1}, {term:"inform",weight:0.3}, …] }, { word: "engineers", … }]
 */
export interface ConceptSettings {
  thesaurus: Thesaurus;
  specificity: TermSpecificity;
  expansionWeight: number;
}

export function queryConcepts(query: string, { thesaurus, specificity, expansionWeight }: ConceptSettings): QueryConcept[] {
  const seen = new Set<string>();
  const concepts: QueryConcept[] = [];
  for (const word of splitWords(query).filter(isContentWord)) {
    const own = stem(word);
    if (seen.has(own)) continue;
    seen.add(own);
    const expanded = expansionWeight > 0 ? thesaurus.related(own) : [];
    const weight = specificity(own);
    const terms: RelatedTerm[] = [{ term: own, weight }];
    for (const related of expanded) {
      if (related.term !== own) terms.push({ term: related.term, weight: weight * Math.min(0.95, related.weight * expansionWeight) });
    }
    concepts.push({ word, terms });
  }
  return concepts;
}
