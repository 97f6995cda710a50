import { describe, expect, it } from "vitest";
import { didYouMean, didYouMeanSuffix, editDistance } from "./did-you-mean";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["", "abc", 3],
    ["abc", "", 3],
    ["abc", "abc", 0],
    ["kitten", "sitting", 3],
    ["titel", "title", 1],
    ["maxTurn", "maxTurns", 1],
    ["flaw", "lawn", 2],
  ])("%j → %j is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe("didYouMean", () => {
  const exchangeKeys = ["adapter", "tool", "toolsInto", "call", "result", "resultsInto", "maxTurns", "stuckAfterRepeats"];

  it("finds the key one letter away", () => {
    expect(didYouMean("stuckAfterRepeat", exchangeKeys)).toBe("stuckAfterRepeats");
    expect(didYouMean("maxTurn", exchangeKeys)).toBe("maxTurns");
    expect(didYouMean("resultInto", exchangeKeys)).toBe("resultsInto");
  });

  it("forgives case first, even when another candidate is closer by letters", () => {
    expect(didYouMean("toolexchange", ["toolExchange", "toolExchanges"])).toBe("toolExchange");
    expect(didYouMean("MAXTURNS", exchangeKeys)).toBe("maxTurns");
  });

  it("suggests the closest candidate, and the first of equally close ones", () => {
    expect(didYouMean("titel", ["name", "title", "kind"])).toBe("title");
    expect(didYouMean("cal", ["call", "tool"])).toBe("call");
    expect(didYouMean("bc", ["ab", "cd"])).toBeUndefined(); // short words get near misses only
    expect(didYouMean("bc", ["bd", "ab"])).toBe("bd");
  });

  it("suggests nothing when no candidate is close", () => {
    expect(didYouMean("serviceConnectors", ["name", "title", "kind"])).toBeUndefined();
    expect(didYouMean("zebra", exchangeKeys)).toBeUndefined();
    expect(didYouMean("anything", [])).toBeUndefined();
  });

  it("allows more edits for longer words (a third of the length, at least 2)", () => {
    // 12 letters: up to 4 edits
    expect(didYouMean("instructionz", ["instructions"])).toBe("instructions");
    expect(didYouMean("instrctns", ["instructions"])).toBe("instructions");
    // 5 letters: up to 2 edits
    expect(didYouMean("tulex", ["title"])).toBeUndefined();
  });
});

describe("didYouMeanSuffix", () => {
  it("formats a suggestion for a message, or nothing", () => {
    expect(didYouMeanSuffix("titel", ["title"])).toBe(" (did you mean 'title'?)");
    expect(didYouMeanSuffix("zebra", ["title"])).toBe("");
  });
});
