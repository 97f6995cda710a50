import { describe, expect, it } from "vitest";
import { defaultSpecificity, defaultThesaurus, wordnetThesaurus } from "./default-thesaurus";
import { domainThesaurus } from "./domain-synonyms";
import { stem } from "./porter-stemmer";
import { specificityFromCommonness } from "./term-specificity";
import { combineThesauri, parseThesaurus, serializeThesaurus } from "./thesaurus";
import wordnetData from "./wordnet-thesaurus.json" with { type: "json" };

describe("thesaurus text form", () => {
  it("round-trips, weights rounded to tenths within 0.1–0.9", () => {
    const related = new Map([["notifi", new Map([["inform", 0.62], ["advis", 0.04], ["alert", 1.2]])]]);
    const text = serializeThesaurus(related);
    expect(text).toBe("notifi:inform6 advis1 alert9");
    expect(parseThesaurus(text).related("notifi")).toEqual([
      { term: "inform", weight: 0.6 },
      { term: "advis", weight: 0.1 },
      { term: "alert", weight: 0.9 },
    ]);
    expect(parseThesaurus(text).related("unknown")).toEqual([]);
  });

  it("combines thesauri keeping the highest weight of a term", () => {
    const combined = combineThesauri(parseThesaurus("a:b3 c5"), parseThesaurus("a:b7"));
    expect(combined.related("a")).toEqual([
      { term: "b", weight: 0.7 },
      { term: "c", weight: 0.5 },
    ]);
  });
});

describe("the generated WordNet data", () => {
  it("carries WordNet's notice and relates words the way WordNet does", () => {
    expect(wordnetData.license).toContain("Princeton University");
    const related = (word: string): string[] => wordnetThesaurus().related(stem(word)).map((entry) => entry.term);
    expect(related("notify")).toContain(stem("inform"));
    expect(related("kilometer")).toContain("km");
    expect(related("refund")).toContain(stem("payment"));
    expect(related("search")).toContain(stem("seek"));
  });

  it("weighs everyday words down", () => {
    const specificity = defaultSpecificity();
    expect(specificity(stem("make"))).toBeLessThan(0.5);
    expect(specificity(stem("invoice"))).toBe(1);
    expect(specificityFromCommonness(0)).toBe(1);
  });
});

describe("the software shorthand", () => {
  it("relates abbreviations both ways, but not the words of a long form to each other", () => {
    const terms = (word: string): string[] => domainThesaurus().related(stem(word)).map((entry) => entry.term);
    expect(terms("db")).toContain(stem("database"));
    expect(terms("database")).toContain("db");
    expect(terms("pr")).toEqual(expect.arrayContaining([stem("pull"), stem("request")]));
    expect(terms("pull")).not.toContain(stem("request"));
    expect(defaultThesaurus().related(stem("bug")).map((entry) => entry.term)).toContain(stem("issue"));
  });
});
