import { stem } from "./porter-stemmer";
import { stopwords } from "./stopwords";

/**
 * Lowercase words of a text or an identifier: camelCase, PascalCase,
 * snake_case, kebab-case and dotted names are split, apostrophes dropped.
 * A hyphenated compound also gives its joined form, since a compound means
 * more than its parts: "on-call" gives "on", "call" and "oncall", which
 * then meets `list_oncalls`.
 *
 * @example splitWords("searchIssues") // ["search", "issues"]
 * @example splitWords("HTTPServer_v2 what's up") // ["http", "server", "v2", "whats", "up"]
 */
export function splitWords(text: string): string[] {
  const withoutApostrophes = text.replace(/['’]/g, "");
  const spaced = withoutApostrophes
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  const words = spaced.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0);
  const compounds = withoutApostrophes.match(/\b[A-Za-z]+(?:-[A-Za-z]+)+\b/g) ?? [];
  return compounds.length ? [...words, ...compounds.map((compound) => compound.replace(/-/g, "").toLowerCase())] : words;
}

/** True for words that say something about a job: not a stopword, not a bare number. */
export function isContentWord(word: string): boolean {
  return !stopwords.has(word) && !/^\d+$/.test(word);
}

/** Words repeat across thousands of tools; stemming each once keeps indexing 10,000 tools fast. */
const stemCache = new Map<string, string>();
const stemCacheLimit = 100_000;

function cachedStem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (stemCache.size < stemCacheLimit) stemCache.set(word, stemmed);
  }
  return stemmed;
}

/**
 * The index terms of a text: its content words, stemmed.
 *
 * @example analyze("Searching the issues") // ["search", "issu"]
 */
export function analyze(text: string): string[] {
  return splitWords(text).filter(isContentWord).map(cachedStem);
}
