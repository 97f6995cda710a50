import { stem } from "../porter-stemmer";
import { isContentWord, splitWords } from "../tokenize";
import type { IndexEntry, SenseCount, Synset } from "./parse-wordnet";
import { senseSalience, type SenseSalience } from "./sense-salience";
import { wordCommonness } from "./word-commonness";

/** How strongly each WordNet relation ties a word to another, before the senses' salience. */
export interface RelationWeights {
  synonym: number;
  derivation: number;
  similar: number;
  hypernym: number;
  secondHypernym: number;
  hyponym: number;
  definition: number;
}

export const defaultRelationWeights: RelationWeights = {
  synonym: 0.8,
  derivation: 0.7,
  similar: 0.5,
  hypernym: 0.5,
  secondHypernym: 0.3,
  hyponym: 0.25,
  definition: 0.3,
};

export interface ThesaurusBuildOptions {
  relationWeights?: RelationWeights;
  /** The weight of a lemma's 1st, 2nd, 3rd… sense in its part of speech; later senses are ignored. */
  senseWeights?: number[];
  /** Keys must be at least this common (see wordCommonness); related terms at least once. */
  minimumCommonness?: number;
  /** Related terms kept per key, strongest first. */
  maximumRelated?: number;
  /** Words of a multiword lemma ("give notice") count this much of the lemma's weight. */
  multiwordFactor?: number;
  /** Content words of a definition taken, from its start. */
  definitionWords?: number;
  /** Senses less salient than this are skipped as noise. */
  minimumSalience?: number;
  /** A related word's own sense counts at least this much (1: not at all, 0: fully). */
  targetSalienceFloor?: number;
}

/** stem → related stem → weight in (0, 1). */
export type RelatedStems = Map<string, Map<string, number>>;

export interface WordnetTables {
  synsets: Map<string, Synset>;
  entries: IndexEntry[];
  senseCounts: SenseCount[];
}

type Settings = Required<ThesaurusBuildOptions>;

const defaultSettings: Settings = {
  relationWeights: defaultRelationWeights,
  senseWeights: [1, 0.8, 0.6, 0.5],
  minimumCommonness: 10,
  maximumRelated: 12,
  multiwordFactor: 0.6,
  definitionWords: 6,
  minimumSalience: 0.15,
  targetSalienceFloor: 0,
};

/**
 * A related word found for a lemma: its weight, the weight of the link back
 * (a hypernym's way back is a hyponym), and the synset it was found in when
 * it is a lemma there.
 */
interface Relation {
  word: string;
  weight: number;
  reverseWeight: number;
  synsetKey?: string;
}

/**
 * A compact related-terms map from WordNet, keyed by Porter stems so the
 * search looks a query term up without lemmatizing. A link weighs the
 * relation times the salience of the sense on both ends, so rare senses
 * add little; links are symmetric (a tool that says "forecast" is found by
 * "weather" as well as the reverse); only common words are keys.
 */
export function buildThesaurus(tables: WordnetTables, options: ThesaurusBuildOptions = {}): RelatedStems {
  const settings: Settings = { ...defaultSettings, ...options };
  const salience = senseSalience(tables.entries, tables.senseCounts, settings.senseWeights);
  const commonness = wordCommonness(tables.synsets.values(), tables.senseCounts);
  const related: RelatedStems = new Map();
  const link = (from: string, to: string, weight: number): void => {
    if (from === to || !commonness.get(to)) return;
    const targets = related.get(from) ?? new Map<string, number>();
    related.set(from, targets);
    if ((targets.get(to) ?? 0) < weight) targets.set(to, weight);
  };
  for (const entry of tables.entries) {
    if (!isKeyWord(entry.lemma)) continue;
    const from = stem(entry.lemma);
    for (const relation of relationsOf(entry, tables.synsets, salience, settings)) {
      const targetSalience = relation.synsetKey ? Math.max(settings.targetSalienceFloor, salience(relation.word, relation.synsetKey)) : 1;
      const factor = targetSalience * (relation.word.includes(" ") || relation.word.includes("-") ? settings.multiwordFactor : 1);
      for (const term of termsOfLemma(relation.word)) {
        link(from, term, relation.weight * factor);
        link(term, from, relation.reverseWeight * factor);
      }
    }
  }
  const vocabulary = new Set([...commonness].filter(([, count]) => count >= settings.minimumCommonness).map(([key]) => key));
  return strongestRelated(related, vocabulary, commonness, settings.maximumRelated);
}

/** Words (lemmas, maybe multiword) related to one index entry, weighted by relation and by the entry's sense. */
function relationsOf(entry: IndexEntry, synsets: Map<string, Synset>, salience: SenseSalience, settings: Settings): Relation[] {
  const found: Relation[] = [];
  const weights = settings.relationWeights;
  for (const key of entry.synsetKeys.slice(0, settings.senseWeights.length)) {
    const synset = synsets.get(key);
    const senseWeight = salience(entry.lemma, key);
    if (!synset || senseWeight < settings.minimumSalience) continue;
    const ownWord = synset.words.indexOf(entry.lemma) + 1;
    const add = (word: string, weight: number, reverseWeight: number, synsetKey?: string): void => {
      found.push({ word, weight: weight * senseWeight, reverseWeight: reverseWeight * senseWeight, synsetKey });
    };
    for (const word of synset.words) add(word, weights.synonym, weights.synonym, key);
    for (const word of splitWords(synset.definition).filter(isContentWord).slice(0, settings.definitionWords)) {
      add(word, weights.definition, weights.definition);
    }
    for (const pointer of synset.pointers) {
      if (pointer.sourceWord !== 0 && pointer.sourceWord !== ownWord) continue;
      const target = synsets.get(pointer.target);
      const [weight, reverseWeight] = relationWeights(pointer.symbol, weights);
      if (!target || weight === 0) continue;
      const targetWords = pointer.targetWord > 0 ? [target.words[pointer.targetWord - 1]].filter(Boolean) : target.words;
      for (const word of targetWords) add(word, weight, reverseWeight, target.key);
      if (!pointer.symbol.startsWith("@")) continue;
      for (const upper of target.pointers.filter((next) => next.symbol.startsWith("@"))) {
        for (const word of synsets.get(upper.target)?.words ?? []) add(word, weights.secondHypernym, weights.hyponym * weights.secondHypernym, upper.target);
      }
    }
  }
  return found;
}

const similarSymbols = new Set(["&", "^", "\\", "=", "$", "*", ">", "<"]);

/** The weight of a pointer and of its way back: a query word's hypernym is a closer match than its hyponym. */
function relationWeights(symbol: string, weights: RelationWeights): [number, number] {
  if (symbol === "@" || symbol === "@i") return [weights.hypernym, weights.hyponym];
  if (symbol === "~" || symbol === "~i") return [weights.hyponym, weights.hypernym];
  if (symbol === "+") return [weights.derivation, weights.derivation];
  if (similarSymbols.has(symbol)) return [weights.similar, weights.similar];
  return [0, 0];
}

/** The index terms of a lemma: "weather forecast" gives both words (weighed down by the caller). */
function termsOfLemma(lemma: string): string[] {
  return splitWords(lemma).filter(isKeyWord).map(stem);
}

function isKeyWord(word: string): boolean {
  return /^[a-z]{2,}$/.test(word) && isContentWord(word);
}

/** Keeps vocabulary keys and their strongest related terms; ties go to the more common term, then the alphabet. */
function strongestRelated(related: RelatedStems, vocabulary: Set<string>, commonness: Map<string, number>, maximum: number): RelatedStems {
  const kept: RelatedStems = new Map();
  for (const key of [...related.keys()].sort()) {
    if (!vocabulary.has(key)) continue;
    const ranked = [...related.get(key)!].sort(
      ([termA, weightA], [termB, weightB]) =>
        weightB - weightA || (commonness.get(termB) ?? 0) - (commonness.get(termA) ?? 0) || (termA < termB ? -1 : 1),
    );
    kept.set(key, new Map(ranked.slice(0, maximum)));
  }
  return kept;
}
