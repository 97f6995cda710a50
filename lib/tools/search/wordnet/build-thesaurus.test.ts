import { describe, expect, it } from "vitest";
import { stem } from "../porter-stemmer";
import { buildThesaurus, type WordnetTables } from "./build-thesaurus";
import { parseDataLine, parseIndexLine, parseSenseLine, type IndexEntry, type SenseCount, type Synset } from "./parse-wordnet";

/** A four-synset WordNet: "forecast" (verb and noun), "weather", and a rare sense of "page". */
function tinyWordnet(): WordnetTables {
  const data = [
    "00928443 32 v 02 forecast 0 calculate 1 002 @ 00919743 v 0000 + 06762595 n 0101 | predict in advance",
    "00919743 31 v 01 predict 0 000 | make a prediction about; tell in advance",
    "06762595 10 n 02 prognosis 0 forecast 0 001 + 00928443 v 0201 | a prediction about how something (as the weather) will develop",
    "11545095 19 n 01 weather 0 000 | the atmospheric conditions that comprise the state of the atmosphere",
    "10411115 18 n 02 page 0 pageboy 0 000 | a boy who is employed to run errands",
    "00756605 32 v 01 page 0 000 | contact, as with a pager or by calling somebody's name",
  ];
  const index = [
    "forecast v 1 2 @ + 1 1 00928443",
    "forecast n 1 1 + 1 1 06762595",
    "prognosis n 1 0 1 1 06762595",
    "predict v 1 0 1 1 00919743",
    "weather n 1 0 1 1 11545095",
    "page n 1 0 1 0 10411115",
    "page v 1 0 1 1 00756605",
    "pageboy n 1 0 1 0 10411115",
  ];
  const senses = [
    "forecast%2:31:00:: 00928443 1 5",
    "forecast%1:10:00:: 06762595 1 3",
    "prognosis%1:10:00:: 06762595 1 2",
    "predict%2:31:00:: 00919743 1 8",
    "weather%1:19:00:: 11545095 1 20",
    "page%1:18:00:: 10411115 1 0",
    "page%2:32:00:: 00756605 1 40",
    "pageboy%1:18:00:: 10411115 1 0",
  ];
  const synsets = new Map<string, Synset>();
  for (const line of data) {
    const synset = parseDataLine(line)!;
    synsets.set(synset.key, synset);
  }
  return {
    synsets,
    entries: index.map((line) => parseIndexLine(line)).filter((entry): entry is IndexEntry => !!entry),
    senseCounts: senses.map((line) => parseSenseLine(line)).filter((sense): sense is SenseCount => !!sense),
  };
}

describe("buildThesaurus", () => {
  const related = buildThesaurus(tinyWordnet(), { minimumCommonness: 1 });
  const terms = (word: string): Map<string, number> => related.get(stem(word)) ?? new Map();

  it("relates synonyms, hypernyms and derived words, keyed by stem", () => {
    expect(terms("forecast").get(stem("prognosis"))).toBeGreaterThan(0.5);
    expect(terms("forecast").get(stem("predict"))).toBeGreaterThan(0.3);
  });

  it("links both ways, so a word in a definition finds the word defined", () => {
    expect(terms("weather").has(stem("forecast"))).toBe(true);
    expect(terms("forecast").has(stem("weather"))).toBe(true);
  });

  it("weighs a sense people rarely mean far below the common one", () => {
    const pageboy = terms("page").get(stem("pageboy")) ?? 0;
    const contact = terms("page").get(stem("contact")) ?? 0;
    expect(pageboy).toBeLessThan(contact);
  });

  it("keeps only words common enough as keys, and at most maximumRelated terms each", () => {
    const strict = buildThesaurus(tinyWordnet(), { minimumCommonness: 1000 });
    expect(strict.size).toBe(0);
    const short = buildThesaurus(tinyWordnet(), { minimumCommonness: 1, maximumRelated: 2 });
    for (const targets of short.values()) expect(targets.size).toBeLessThanOrEqual(2);
  });
});
