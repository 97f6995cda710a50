import { defaultSpecificity, defaultThesaurus } from "./default-thesaurus";
import { exactNameTable, nameKey } from "./exact-name";
import { buildInvertedIndex, type FieldTerms } from "./inverted-index";
import { queryConcepts } from "./query-concepts";
import { defaultRankingSettings, type RankingSettings } from "./ranking-settings";
import { clearScores, createScoringBuffers, scoreConcepts } from "./score-concepts";
import { defaultResultCount, type SearchableTool, type ToolMatch } from "./searchable-tool";
import type { TermSpecificity } from "./term-specificity";
import type { Thesaurus } from "./thesaurus";
import { analyze } from "./tokenize";
import { fieldNames, toolFieldText } from "./tool-fields";
import { tieRanks } from "./tie-ranks";
import { topMatches } from "./top-matches";

/** A search over a fixed set of tools, built once. */
export interface ToolIndex {
  readonly tools: readonly SearchableTool[];
  /** The `k` tools that best fit a job described in plain words, best first; [] for a query with no content words. */
  search(query: string, k?: number): ToolMatch[];
}

export interface ToolIndexOptions {
  /** Related terms for query words; `emptyThesaurus` turns expansion off. Default: WordNet + software shorthand. */
  thesaurus?: Thesaurus;
  /** How much an expanded term counts, times its thesaurus weight (the query's own terms count 1). */
  expansionWeight?: number;
  /** How much each query word says about the job; `uniformSpecificity` for plain BM25. Default: from WordNet's counts. */
  specificity?: TermSpecificity;
  ranking?: RankingSettings;
}

export const defaultExpansionWeight = 0.6;

/**
 * Indexes tools for `search_tools`: BM25F over the stemmed words of each
 * tool's name (split at camelCase, snake_case and kebab-case), server,
 * description and parameter names and descriptions; query words are
 * expanded with related words at a lower weight, so a job phrased in other
 * words than the description still finds the tool. A query that is a tool's
 * exact name (any case or separators, optionally prefixed by its server)
 * puts that tool first.
 *
 * @example
 * const index = createToolIndex(tools);
 * index.search("let the on-call engineer know the database is down", 3);
 * // [{ tool: { server: "pagerduty", name: "create_incident", … }, score: 7.1 }, …]
 */
export function createToolIndex(tools: readonly SearchableTool[], options: ToolIndexOptions = {}): ToolIndex {
  const conceptSettings = {
    thesaurus: options.thesaurus ?? defaultThesaurus(),
    specificity: options.specificity ?? defaultSpecificity(),
    expansionWeight: options.expansionWeight ?? defaultExpansionWeight,
  };
  const index = buildInvertedIndex(tools.map(fieldTerms), options.ranking ?? defaultRankingSettings);
  const buffers = createScoringBuffers(tools.length);
  const exactNames = exactNameTable(tools);
  const tieRank = tieRanks(tools);
  return {
    tools,
    search(query, k = defaultResultCount) {
      const limit = Math.floor(k);
      if (!(limit > 0)) return [];
      const concepts = queryConcepts(query, conceptSettings);
      const scored = scoreConcepts(index, concepts, buffers);
      const exact = new Set(exactNames.get(nameKey(query)) ?? []);
      const bonus = exact.size ? highestScore(scored, buffers.totals) : 0;
      for (const document of exact) if (buffers.totals[document] === 0) scored.push(document);
      const scoreOf = (document: number): number => buffers.totals[document] + (exact.has(document) ? bonus + 1 : 0);
      const best = topMatches(scored, scoreOf, limit, tieRank);
      clearScores(buffers, scored);
      return best.map(({ document, score }) => ({ tool: tools[document], score }));
    },
  };
}

function fieldTerms(tool: SearchableTool): FieldTerms {
  const text = toolFieldText(tool);
  return Object.fromEntries(fieldNames.map((field) => [field, analyze(text[field])])) as FieldTerms;
}

function highestScore(documents: number[], totals: Float64Array): number {
  let highest = 0;
  for (const document of documents) highest = Math.max(highest, totals[document]);
  return highest;
}
