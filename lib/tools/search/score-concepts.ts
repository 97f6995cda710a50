import type { InvertedIndex } from "./inverted-index";
import type { QueryConcept } from "./query-concepts";

/** Reusable per-index buffers, so a query allocates nothing in proportion to the number of tools. */
export interface ScoringBuffers {
  totals: Float64Array;
  conceptBest: Float64Array;
}

export function createScoringBuffers(documentCount: number): ScoringBuffers {
  return { totals: new Float64Array(documentCount), conceptBest: new Float64Array(documentCount) };
}

/**
 * Adds up, per document, each concept's best weighted posting score into
 * `buffers.totals` and returns the documents that scored. Walks only the
 * posting lists of the query's terms. The caller reads the totals and then
 * calls `clearScores` with the returned documents.
 */
export function scoreConcepts(index: InvertedIndex, concepts: QueryConcept[], buffers: ScoringBuffers): number[] {
  const { totals, conceptBest } = buffers;
  const scored: number[] = [];
  const touched: number[] = [];
  for (const concept of concepts) {
    touched.length = 0;
    for (const { term, weight } of concept.terms) {
      const list = index.postings.get(term);
      if (!list) continue;
      const { documents, scores } = list;
      for (let position = 0; position < documents.length; position++) {
        const document = documents[position];
        const value = scores[position] * weight;
        const best = conceptBest[document];
        if (best === 0) touched.push(document);
        if (value > best) conceptBest[document] = value;
      }
    }
    for (const document of touched) {
      if (totals[document] === 0) scored.push(document);
      totals[document] += conceptBest[document];
      conceptBest[document] = 0;
    }
  }
  return scored;
}

/** Zeroes the totals of the given documents, ready for the next query. */
export function clearScores(buffers: ScoringBuffers, documents: number[]): void {
  for (const document of documents) buffers.totals[document] = 0;
}
