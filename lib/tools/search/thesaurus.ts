/** A term related to a query term, and how much a match on it counts (0–1, the query's own term counts 1). */
export interface RelatedTerm {
  term: string;
  weight: number;
}

/** Related index terms (Porter stems) for an index term. */
export interface Thesaurus {
  related(term: string): readonly RelatedTerm[];
}

/** A thesaurus that knows no relations: plain BM25 over stems. */
export const emptyThesaurus: Thesaurus = { related: () => [] };

/**
 * Reads the compact text form: one line per key, `key:term6 other4`, the
 * digit being the weight in tenths. Lines are split on first use only, so
 * loading costs one string split however large the file.
 *
 * @example parseThesaurus("notifi:advis6 inform4").related("notifi") // [{term:"advis",weight:0.6}, …]
 */
export function parseThesaurus(text: string): Thesaurus {
  const lines = new Map<string, string>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) lines.set(line.slice(0, colon), line.slice(colon + 1));
  }
  const parsed = new Map<string, RelatedTerm[]>();
  return {
    related(term) {
      const known = parsed.get(term);
      if (known) return known;
      const line = lines.get(term);
      if (line === undefined) return [];
      const terms = line.split(" ").filter(Boolean).map((entry) => ({ term: entry.slice(0, -1), weight: Number(entry.slice(-1)) / 10 }));
      parsed.set(term, terms);
      return terms;
    },
  };
}

/** The text form of a related-terms map; weights are rounded to tenths (at least 0.1, at most 0.9). */
export function serializeThesaurus(related: Map<string, Map<string, number>>): string {
  const lines: string[] = [];
  for (const key of [...related.keys()].sort()) {
    const terms = [...related.get(key)!].map(([term, weight]) => `${term}${Math.min(9, Math.max(1, Math.round(weight * 10)))}`);
    if (terms.length) lines.push(`${key}:${terms.join(" ")}`);
  }
  return lines.join("\n");
}

/** Relations from several thesauri; a term related in more than one keeps its highest weight. */
export function combineThesauri(...thesauri: Thesaurus[]): Thesaurus {
  const cache = new Map<string, RelatedTerm[]>();
  return {
    related(term) {
      const known = cache.get(term);
      if (known) return known;
      const weights = new Map<string, number>();
      for (const thesaurus of thesauri) {
        for (const related of thesaurus.related(term)) weights.set(related.term, Math.max(weights.get(related.term) ?? 0, related.weight));
      }
      const combined = [...weights].map(([related, weight]) => ({ term: related, weight }));
      cache.set(term, combined);
      return combined;
    },
  };
}
