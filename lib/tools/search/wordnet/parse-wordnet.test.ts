import { describe, expect, it } from "vitest";
import { parseDataLine, parseIndexLine, parseSenseLine } from "./parse-wordnet";

// Lines as they stand in WordNet 3.1's files.
const notifyData =
  '00875364 32 v 06 advise 1 notify 0 give_notice 0 send_word 0 apprise 0 apprize 1 007 @ 00833312 v 0000 + 07227084 n 0502 + 07200328 n 0201 + 07227084 n 0203 + 07200328 n 0202 + 06760383 n 0201 + 00473688 a 0201 04 + 09 00 + 10 00 + 18 00 + 26 00 | inform (somebody) of something; "I advised him that the rent was due"  ';

describe("parseDataLine", () => {
  it("reads the words, the pointers and the definition of a synset", () => {
    const synset = parseDataLine(notifyData)!;
    expect(synset.key).toBe("v00875364");
    expect(synset.words).toEqual(["advise", "notify", "give notice", "send word", "apprise", "apprize"]);
    expect(synset.pointers[0]).toEqual({ symbol: "@", target: "v00833312", sourceWord: 0, targetWord: 0 });
    expect(synset.pointers[1]).toEqual({ symbol: "+", target: "n07227084", sourceWord: 5, targetWord: 2 });
    expect(synset.definition).toBe("inform (somebody) of something");
    expect(synset.gloss).toContain("I advised him");
  });

  it("drops adjective markers and keys satellites with adjectives", () => {
    const synset = parseDataLine("00837276 00 s 01 down 0 001 & 00837114 a 0000 | not functioning (temporarily or permanently)")!;
    expect(synset.key).toBe("a00837276");
    expect(parseDataLine("02495926 00 s 02 down(a) 0 downward(a) 0 001 & 02495328 a 0000 | extending")!.words).toEqual(["down", "downward"]);
  });

  it("skips the license header", () => {
    expect(parseDataLine("  1 This software and database is being provided to you")).toBeUndefined();
  });
});

describe("parseIndexLine and parseSenseLine", () => {
  it("lists a lemma's synsets most frequent first", () => {
    expect(parseIndexLine("page v 3 2 @ + 3 1 00756605 02417643 00951125  ")).toEqual({
      lemma: "page",
      pos: "v",
      synsetKeys: ["v00756605", "v02417643", "v00951125"],
    });
  });

  it("reads a sense's tag count", () => {
    expect(parseSenseLine("notify%2:32:00:: 00875364 1 10")).toEqual({ lemma: "notify", synsetKey: "v00875364", tagCount: 10 });
    expect(parseSenseLine("down%5:00:00:inoperative:00 00837276 8 0")).toEqual({ lemma: "down", synsetKey: "a00837276", tagCount: 0 });
  });
});
