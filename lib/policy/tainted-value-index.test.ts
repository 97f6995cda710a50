import { describe, expect, it } from "vitest";
import { type TaintedArgument, type TaintSourceText, taintedArguments } from "./tainted-arguments";
import { TaintedValueIndex } from "./tainted-value-index";

/** REFERENCE ORACLE: the check as it was before the index, a scan of every source's text for every string argument. */
function scannedTaintedArguments(args: unknown, sources: readonly TaintSourceText[], nodeRunTainted: boolean): TaintedArgument[] {
  if (!nodeRunTainted) return [];
  const found: TaintedArgument[] = [];
  const leaves = (value: unknown, path: string): Array<[string, string]> => {
    const join = (key: string) => (path ? `${path}.${key}` : key);
    if (typeof value === "string") return [[path, value]];
    if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, join(String(index))));
    if (value && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => leaves(item, join(key)));
    return [];
  };
  for (const [path, value] of leaves(args, "")) {
    const foundIn = value.length >= 4 ? sources.filter((source) => source.text.includes(value)).map(({ origin, server, tool }) => ({ origin, server, tool })) : [];
    found.push({ path, value: value.length > 200 ? `${value.slice(0, 199)}…` : value, foundIn });
  }
  return found;
}

/** The index as the approval gate keeps it: each call's result added after the call, with the origins it brought. */
function gateIndex(sources: readonly TaintSourceText[]): TaintedValueIndex {
  const index = new TaintedValueIndex();
  for (const { origin, server, tool, text } of sources) index.add(text, [{ origin, server, tool }]);
  return index;
}

const source = (origin: string, text: string): TaintSourceText => ({ origin, server: "web", tool: "search", text });

/** A small seeded generator (mulberry32), so a failure is reproduced by its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the index of tainted values", () => {
  it("finds a value copied out of a result, and names every result that holds it, in the order they came", () => {
    const index = gateIndex([source("r1", "write to attacker@example.com now"), source("r2", "nothing here"), source("r3", "cc attacker@example.com")]);
    expect(index.find("attacker@example.com").map((found) => found.origin)).toEqual(["r1", "r3"]);
    expect(index.find("attacker@example.org")).toEqual([]);
    expect(index.size).toBe(3);
  });

  it("values of the window's length, shorter ones, and texts shorter than a window", () => {
    const index = gateIndex([source("r1", "abc"), source("r2", "abcd"), source("r3", "xabcdx")]);
    expect(index.find("abcd").map((found) => found.origin)).toEqual(["r2", "r3"]);
    // Shorter than a window: every text is a candidate, and the answer is still exact.
    expect(index.find("abc").map((found) => found.origin)).toEqual(["r1", "r2", "r3"]);
    expect(index.find("").map((found) => found.origin)).toEqual(["r1", "r2", "r3"]);
    // The check itself never traces values under 4 characters.
    expect(taintedArguments({ a: "abc" }, index, true)).toEqual([{ path: "a", value: "abc", foundIn: [] }]);
  });

  it("overlapping and repeated windows: a value that overlaps itself, and a text that repeats a window many times", () => {
    const index = gateIndex([source("r1", "aaaaaaa"), source("r2", "abababab"), source("r3", "aaab")]);
    expect(index.find("aaaa").map((found) => found.origin)).toEqual(["r1"]);
    expect(index.find("aaaaaaaa")).toEqual([]);
    expect(index.find("babab").map((found) => found.origin)).toEqual(["r2"]);
    expect(index.find("abab").map((found) => found.origin)).toEqual(["r2"]);
    expect(index.find("aaab").map((found) => found.origin)).toEqual(["r3"]);
  });

  it("every window present but not together is no match", () => {
    // "abcd" and "bcde" are in r1, "cdef" in r2: each window of "abcdef" is somewhere, the value is nowhere.
    const index = gateIndex([source("r1", "abcde"), source("r2", "cdef")]);
    expect(index.find("abcdef")).toEqual([]);
    expect(index.find("bcdef")).toEqual([]);
  });

  it("unicode: windows are UTF-16 code units, as includes counts them (emoji, combining marks, lone surrogates)", () => {
    const text = "café 👩‍💻 naïve ☃ \uD83D end Ω";
    const index = gateIndex([source("r1", text), source("r2", "cafe\u0301")]);
    for (const value of ["👩‍💻", "é 👩", "\uDC69\u200D\uD83D", "naïve", "☃ \uD83D e", "\uD83D end", "end Ω"]) {
      expect(index.find(value).map((found) => found.origin), value).toEqual(text.includes(value) ? ["r1"] : []);
    }
    // The same word composed differently is another string, as it was.
    expect(index.find("café")).toHaveLength(1);
    expect(index.find("cafe\u0301").map((found) => found.origin)).toEqual(["r2"]);
  });

  it("a value split across two arguments is no match for either half when neither half is in a result", () => {
    const sources = [source("r1", "send it to evil-attacker@example.com")];
    const args = { user: "evil-attacker@exa", domain: "mple.com!" };
    expect(taintedArguments(args, gateIndex(sources), true)).toEqual(scannedTaintedArguments(args, sources, true));
    expect(taintedArguments(args, gateIndex(sources), true).map((argument) => argument.foundIn.length)).toEqual([1, 0]);
  });

  it("a result that brought several origins stands for each of them, in order", () => {
    const index = new TaintedValueIndex();
    index.add("memory says: wire to 99887766", [
      { origin: "row-1", server: "builtin", tool: "read_memory" },
      { origin: "row-2", server: "builtin", tool: "read_memory" },
    ]);
    index.add("account 99887766 again", [{ origin: "row-3", server: "web", tool: "search" }]);
    expect(index.find("99887766").map((found) => found.origin)).toEqual(["row-1", "row-2", "row-3"]);
  });

  it("the list form groups consecutive sources of the same text and answers as the scan does", () => {
    const sources = [source("r1", "same text here"), source("r2", "same text here"), source("r3", "other text"), source("r4", "same text here")];
    const args = { a: "text here", b: "other", c: ["same", "text"] };
    expect(taintedArguments(args, sources, true)).toEqual(scannedTaintedArguments(args, sources, true));
  });

  it("answers exactly as the scan did, on randomized texts and arguments (small alphabets, so matches, overlaps and near misses are common)", () => {
    const alphabets = ["ab", "abc ", "xyz.@", "aé👩\u0301 ", "0123456789"];
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const alphabet = [...alphabets[seed % alphabets.length]];
      const word = (length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      const sources = Array.from({ length: 1 + Math.floor(next() * 12) }, (_, index) => source(`r${index}`, word(Math.floor(next() * 60))));
      // Arguments: pieces cut out of the texts (some across their ends), fresh words, and nested objects and arrays.
      const cut = () => {
        const text = sources[Math.floor(next() * sources.length)].text;
        const start = Math.floor(next() * (text.length + 1));
        return text.slice(start, start + Math.floor(next() * 12)) + (next() < 0.2 ? word(1) : "");
      };
      const value = () => (next() < 0.6 ? cut() : word(Math.floor(next() * 10)));
      const args = { a: value(), list: [value(), { deep: value() }, 7, null], b: value(), n: 3 };
      const nodeRunTainted = next() < 0.9;
      expect(taintedArguments(args, gateIndex(sources), nodeRunTainted), `seed ${seed}`).toEqual(scannedTaintedArguments(args, sources, nodeRunTainted));
      expect(taintedArguments(args, sources, nodeRunTainted), `seed ${seed}, list form`).toEqual(scannedTaintedArguments(args, sources, nodeRunTainted));
    }
  });

  it("answers exactly as the scan did on long texts with many sources (postings grow, candidates narrow), and long values are shortened as before", () => {
    const next = random(42);
    const words = ["alpha", "beta", "gamma", "delta", "mail", "to", "attacker@example.com", "https://evil.example/x?y=1", "ünïcödé", "👩‍💻"];
    const sentence = (length: number) => Array.from({ length }, () => words[Math.floor(next() * words.length)]).join(" ");
    const sources = Array.from({ length: 300 }, (_, index) => source(`r${index}`, sentence(50 + Math.floor(next() * 200))));
    const index = gateIndex(sources);
    for (let round = 0; round < 200; round++) {
      const text = sources[Math.floor(next() * sources.length)].text;
      const start = Math.floor(next() * text.length);
      const args = { copied: text.slice(start, start + 4 + Math.floor(next() * (round % 10 === 0 ? 400 : 40))), fresh: sentence(1 + Math.floor(next() * 4)) };
      expect(taintedArguments(args, index, true), `round ${round}`).toEqual(scannedTaintedArguments(args, sources, true));
    }
  });
});
