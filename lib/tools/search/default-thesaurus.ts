import { domainThesaurus } from "./domain-synonyms";
import { parseSpecificity, type TermSpecificity } from "./term-specificity";
import { combineThesauri, parseThesaurus, type Thesaurus } from "./thesaurus";
import wordnetData from "./wordnet-thesaurus.json" with { type: "json" };

let wordnet: Thesaurus | undefined;
let standard: Thesaurus | undefined;
let specificity: TermSpecificity | undefined;

/** The related terms generated from WordNet 3.1 (see wordnet/generate-thesaurus.ts), parsed on first use. */
export function wordnetThesaurus(): Thesaurus {
  wordnet ??= parseThesaurus(wordnetData.entries);
  return wordnet;
}

/** What an index uses unless told otherwise: WordNet plus the hand-written software shorthand. */
export function defaultThesaurus(): Thesaurus {
  standard ??= combineThesauri(wordnetThesaurus(), domainThesaurus());
  return standard;
}

/** How specific each query term is, from the everyday-English counts in the same generated file. */
export function defaultSpecificity(): TermSpecificity {
  specificity ??= parseSpecificity(wordnetData.common);
  return specificity;
}
