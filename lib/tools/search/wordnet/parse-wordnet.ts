/**
 * Readers for the WordNet 3.x database files (wndb(5WN)): `data.POS`,
 * `index.POS` and `index.sense`. Each takes one line; the license header
 * (lines that start with a space) and malformed lines give `undefined`.
 */

/** n = noun, v = verb, a = adjective, s = adjective satellite, r = adverb. */
export type PartOfSpeech = "n" | "v" | "a" | "s" | "r";

/** A pointer from a synset (or one of its words) to another synset (or one of its words). */
export interface WordnetPointer {
  /** `@` hypernym, `~` hyponym, `+` derivationally related, `&` similar to, … (wninput(5WN)). */
  symbol: string;
  target: string;
  /** 0 when the pointer links whole synsets; else the 1-based word number on that side. */
  sourceWord: number;
  targetWord: number;
}

/** One synset from a `data.POS` file; `key` is `pos` + offset, as pointers name it. */
export interface Synset {
  key: string;
  /** Lowercase lemmas in their file order, multiword ones with spaces ("give notice"). */
  words: string[];
  pointers: WordnetPointer[];
  /** The definition, without the quoted examples. */
  definition: string;
  /** The whole gloss: definition and examples. */
  gloss: string;
}

/** One lemma from an `index.POS` file, with its synsets most frequent sense first. */
export interface IndexEntry {
  lemma: string;
  pos: PartOfSpeech;
  synsetKeys: string[];
}

/** One line of `index.sense`: how often a lemma was tagged in this synset in the semantic concordances. */
export interface SenseCount {
  lemma: string;
  synsetKey: string;
  tagCount: number;
}

/** The key pointers use for a synset: adjective satellites share the adjective file. */
export function synsetKey(pos: string, offset: string): string {
  return `${pos === "s" ? "a" : pos}${offset}`;
}

/** Parses a line of `data.noun`, `data.verb`, `data.adj` or `data.adv`. */
export function parseDataLine(line: string): Synset | undefined {
  if (line.startsWith(" ") || line.trim() === "") return undefined;
  const bar = line.indexOf(" | ");
  const fields = (bar < 0 ? line : line.slice(0, bar)).trim().split(/\s+/);
  const [offset, , pos, wordCountHex] = fields;
  const wordCount = Number.parseInt(wordCountHex, 16);
  if (!offset || !pos || Number.isNaN(wordCount)) return undefined;
  const words: string[] = [];
  let cursor = 4;
  for (let index = 0; index < wordCount; index++, cursor += 2) words.push(readableLemma(fields[cursor]));
  const pointerCount = Number.parseInt(fields[cursor], 10);
  cursor += 1;
  const pointers: WordnetPointer[] = [];
  for (let index = 0; index < pointerCount; index++, cursor += 4) {
    const sourceTarget = fields[cursor + 3] ?? "0000";
    pointers.push({
      symbol: fields[cursor],
      target: synsetKey(fields[cursor + 2], fields[cursor + 1]),
      sourceWord: Number.parseInt(sourceTarget.slice(0, 2), 16),
      targetWord: Number.parseInt(sourceTarget.slice(2), 16),
    });
  }
  const gloss = bar < 0 ? "" : line.slice(bar + 3);
  return { key: synsetKey(pos, offset), words, pointers, definition: definitionOf(gloss), gloss: gloss.trim() };
}

/** Parses a line of `index.noun`, `index.verb`, `index.adj` or `index.adv`. */
export function parseIndexLine(line: string): IndexEntry | undefined {
  if (line.startsWith(" ") || line.trim() === "") return undefined;
  const fields = line.trim().split(/\s+/);
  const [lemma, pos, synsetCountText, pointerCountText] = fields;
  const synsetCount = Number.parseInt(synsetCountText, 10);
  const pointerCount = Number.parseInt(pointerCountText, 10);
  if (!lemma || Number.isNaN(synsetCount) || Number.isNaN(pointerCount)) return undefined;
  const firstOffset = 4 + pointerCount + 2;
  const offsets = fields.slice(firstOffset, firstOffset + synsetCount);
  return { lemma: readableLemma(lemma), pos: pos as PartOfSpeech, synsetKeys: offsets.map((offset) => synsetKey(pos, offset)) };
}

/** Parses a line of `index.sense`, e.g. `notify%2:32:00:: 00875364 1 10`. */
export function parseSenseLine(line: string): SenseCount | undefined {
  const [senseKey, offset, , tagCountText] = line.trim().split(/\s+/);
  const percent = senseKey?.indexOf("%") ?? -1;
  if (!senseKey || percent < 0 || !offset) return undefined;
  const posNumber = senseKey[percent + 1];
  const pos = ({ "1": "n", "2": "v", "3": "a", "4": "r", "5": "s" } as Record<string, string>)[posNumber];
  if (!pos) return undefined;
  return { lemma: readableLemma(senseKey.slice(0, percent)), synsetKey: synsetKey(pos, offset), tagCount: Number.parseInt(tagCountText, 10) || 0 };
}

/** "Give_Notice" → "give notice"; drops the adjective position markers "(a)", "(p)", "(ip)". */
function readableLemma(raw: string): string {
  return raw.replace(/\((a|p|ip)\)$/, "").replace(/_/g, " ").toLowerCase();
}

/** The gloss up to its first quoted example: `contact, as with a pager…; "page Dr. Smith"` → the first part. */
function definitionOf(gloss: string): string {
  const quote = gloss.indexOf('"');
  return (quote < 0 ? gloss : gloss.slice(0, quote)).replace(/[;\s]+$/, "").trim();
}
