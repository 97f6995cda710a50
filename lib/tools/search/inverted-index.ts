import type { RankingSettings } from "./ranking-settings";
import { fieldNames, type FieldName } from "./tool-fields";

/** The documents holding a term, ascending, each with the term's precomputed BM25F score in it. */
export interface PostingList {
  documents: Int32Array;
  scores: Float32Array;
}

export interface InvertedIndex {
  documentCount: number;
  postings: Map<string, PostingList>;
}

/** A document as the index takes it: the terms of each field, in order. */
export type FieldTerms = Record<FieldName, string[]>;

/**
 * Builds BM25F postings. The score of a term in a document depends on the
 * document alone, so it is computed here once; a query then only adds up
 * posting entries and never looks at a document's text.
 */
export function buildInvertedIndex(documents: FieldTerms[], settings: RankingSettings): InvertedIndex {
  const averageLength = averageFieldLengths(documents);
  const weightedFrequencies = new Map<string, Array<[number, number]>>();
  documents.forEach((document, documentId) => {
    const frequencies = new Map<string, number>();
    for (const field of fieldNames) {
      const { weight, lengthNormalization } = settings.fields[field];
      const terms = document[field];
      if (terms.length === 0 || weight === 0) continue;
      const norm = 1 - lengthNormalization + lengthNormalization * (terms.length / (averageLength[field] || 1));
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + weight / norm);
    }
    for (const [term, frequency] of frequencies) {
      const list = weightedFrequencies.get(term) ?? [];
      if (list.length === 0) weightedFrequencies.set(term, list);
      list.push([documentId, frequency]);
    }
  });
  const postings = new Map<string, PostingList>();
  const count = documents.length;
  for (const [term, entries] of weightedFrequencies) {
    const inverseFrequency = Math.log(1 + (count - entries.length + 0.5) / (entries.length + 0.5));
    const list: PostingList = { documents: new Int32Array(entries.length), scores: new Float32Array(entries.length) };
    entries.forEach(([documentId, frequency], position) => {
      list.documents[position] = documentId;
      list.scores[position] = (inverseFrequency * frequency * (settings.saturation + 1)) / (settings.saturation + frequency);
    });
    postings.set(term, list);
  }
  return { documentCount: count, postings };
}

function averageFieldLengths(documents: FieldTerms[]): Record<FieldName, number> {
  const totals = Object.fromEntries(fieldNames.map((field) => [field, 0])) as Record<FieldName, number>;
  for (const document of documents) for (const field of fieldNames) totals[field] += document[field].length;
  for (const field of fieldNames) totals[field] /= Math.max(1, documents.length);
  return totals;
}
