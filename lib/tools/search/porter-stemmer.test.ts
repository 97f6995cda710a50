import { describe, expect, it } from "vitest";
import { stem } from "./porter-stemmer";

// Pairs from Porter's paper and his published sample vocabulary.
const expected: Record<string, string> = {
  caresses: "caress", ponies: "poni", ties: "ti", caress: "caress", cats: "cat",
  feed: "feed", agreed: "agre", plastered: "plaster", bled: "bled", motoring: "motor", sing: "sing",
  conflated: "conflat", troubled: "troubl", sized: "size", hopping: "hop", tanned: "tan",
  falling: "fall", hissing: "hiss", fizzed: "fizz", failing: "fail", filing: "file",
  happy: "happi", sky: "sky",
  relational: "relat", conditional: "condit", rational: "ration", valenci: "valenc",
  digitizer: "digit", radicalli: "radic", differentli: "differ", vileli: "vile",
  analogousli: "analog", vietnamization: "vietnam", predication: "predic", operator: "oper",
  feudalism: "feudal", decisiveness: "decis", hopefulness: "hope", callousness: "callous",
  formaliti: "formal", sensitiviti: "sensit", sensibiliti: "sensibl",
  triplicate: "triplic", formative: "form", formalize: "formal", electriciti: "electr",
  electrical: "electr", hopeful: "hope", goodness: "good",
  revival: "reviv", allowance: "allow", inference: "infer", airliner: "airlin",
  gyroscopic: "gyroscop", adjustable: "adjust", defensible: "defens", irritant: "irrit",
  replacement: "replac", adjustment: "adjust", dependent: "depend", adoption: "adopt",
  homologou: "homolog", communism: "commun", activate: "activ", angulariti: "angular",
  homologous: "homolog", effective: "effect", bowdlerize: "bowdler",
  probate: "probat", rate: "rate", cease: "ceas", controll: "control", roll: "roll",
  generalizations: "gener", oscillators: "oscil",
};

describe("stem", () => {
  it("matches Porter's published examples", () => {
    const actual = Object.fromEntries(Object.keys(expected).map((word) => [word, stem(word)]));
    expect(actual).toEqual(expected);
  });

  it("joins the forms a tool description and a query use", () => {
    expect(stem("issues")).toBe(stem("issue"));
    expect(stem("searching")).toBe(stem("search"));
    expect(stem("notifications")).toBe(stem("notification"));
  });

  it("leaves short words and non-letters alone", () => {
    expect(stem("is")).toBe("is");
    expect(stem("utf8")).toBe("utf8");
  });
});
