// Tool search behind `search_tools`: a job in plain words in, the best-fitting tools out.
export { createToolIndex, defaultExpansionWeight, type ToolIndex, type ToolIndexOptions } from "./create-tool-index";
export { defaultSpecificity, defaultThesaurus, wordnetThesaurus } from "./default-thesaurus";
export { domainThesaurus } from "./domain-synonyms";
export {
  createEmbeddingToolIndex,
  defaultSemanticWeight,
  embeddingText,
  type EmbedTexts,
  type EmbeddingToolIndex,
  type EmbeddingToolIndexOptions,
} from "./embedding-tool-index";
export { parseSearchableTools } from "./parse-searchable-tools";
export { stem } from "./porter-stemmer";
export { defaultRankingSettings, type FieldWeight, type RankingSettings } from "./ranking-settings";
export { defaultResultCount, type SearchableTool, type ToolMatch } from "./searchable-tool";
export { parseSpecificity, uniformSpecificity, type TermSpecificity } from "./term-specificity";
export { combineThesauri, emptyThesaurus, parseThesaurus, type RelatedTerm, type Thesaurus } from "./thesaurus";
export { analyze, splitWords } from "./tokenize";
export { ToolSearchError, type ToolSearchErrorCode } from "./tool-search-error";
