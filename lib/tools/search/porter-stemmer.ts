/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
 * 1980), in the variant of Porter's own reference C code (`bli → ble`,
 * `logi → log` in step 2). Stems are not words: "relational" → "relat",
 * "issues" → "issu". The index, the query and the generated thesaurus all
 * go through this one function, so they agree on the keys.
 *
 * Expects a lowercase word of letters a–z; anything else is returned as is.
 */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let current = step1a(word);
  current = step1b(current);
  current = step1c(current);
  current = replaceSuffix(current, step2Rules, 0);
  current = replaceSuffix(current, step3Rules, 0);
  current = step4(current);
  current = step5a(current);
  return step5b(current);
}

/** A consonant is a letter other than a e i o u, and other than y after a consonant. */
function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if ("aeiou".includes(letter)) return false;
  if (letter === "y") return index === 0 ? true : !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel→consonant sequences in [C](VC)^m[V]. */
function measure(stemPart: string): number {
  let count = 0;
  let index = 0;
  const length = stemPart.length;
  while (index < length && isConsonant(stemPart, index)) index++;
  while (index < length) {
    while (index < length && !isConsonant(stemPart, index)) index++;
    if (index >= length) break;
    while (index < length && isConsonant(stemPart, index)) index++;
    count++;
  }
  return count;
}

function containsVowel(stemPart: string): boolean {
  for (let index = 0; index < stemPart.length; index++) if (!isConsonant(stemPart, index)) return true;
  return false;
}

function endsWithDoubleConsonant(stemPart: string): boolean {
  const last = stemPart.length - 1;
  return last >= 1 && stemPart[last] === stemPart[last - 1] && isConsonant(stemPart, last);
}

/** Porter's *o: ends consonant-vowel-consonant, the last not w, x or y. */
function endsConsonantVowelConsonant(stemPart: string): boolean {
  const last = stemPart.length - 1;
  if (last < 2) return false;
  if (!isConsonant(stemPart, last) || isConsonant(stemPart, last - 1) || !isConsonant(stemPart, last - 2)) return false;
  return !"wxy".includes(stemPart[last]);
}

function step1a(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ies")) return word.slice(0, -2);
  if (word.endsWith("ss")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith("eed")) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  for (const suffix of ["ed", "ing"]) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    return containsVowel(base) ? tidyAfterStep1b(base) : word;
  }
  return word;
}

function tidyAfterStep1b(base: string): string {
  if (base.endsWith("at") || base.endsWith("bl") || base.endsWith("iz")) return `${base}e`;
  if (endsWithDoubleConsonant(base) && !"lsz".includes(base[base.length - 1])) return base.slice(0, -1);
  if (measure(base) === 1 && endsConsonantVowelConsonant(base)) return `${base}e`;
  return base;
}

function step1c(word: string): string {
  return word.endsWith("y") && containsVowel(word.slice(0, -1)) ? `${word.slice(0, -1)}i` : word;
}

type SuffixRule = readonly [suffix: string, replacement: string];

const step2Rules: SuffixRule[] = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
  ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"],
  ["logi", "log"],
];

const step3Rules: SuffixRule[] = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
];

const step4Suffixes = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
  "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
];

/** The longest matching suffix decides; when its condition fails no shorter one is tried. */
function longestSuffix<T extends string>(word: string, suffixes: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const suffix of suffixes) if (word.endsWith(suffix) && (!best || suffix.length > best.length)) best = suffix;
  return best;
}

function replaceSuffix(word: string, rules: SuffixRule[], minimumMeasure: number): string {
  const suffix = longestSuffix(word, rules.map(([from]) => from));
  if (suffix === undefined) return word;
  const base = word.slice(0, -suffix.length);
  if (measure(base) <= minimumMeasure) return word;
  const replacement = rules.find(([from]) => from === suffix)![1];
  return base + replacement;
}

function step4(word: string): string {
  const suffix = longestSuffix(word, step4Suffixes);
  if (suffix === undefined) return word;
  const base = word.slice(0, -suffix.length);
  if (measure(base) <= 1) return word;
  if (suffix === "ion" && !(base.endsWith("s") || base.endsWith("t"))) return word;
  return base;
}

function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const base = word.slice(0, -1);
  const size = measure(base);
  if (size > 1 || (size === 1 && !endsConsonantVowelConsonant(base))) return base;
  return word;
}

function step5b(word: string): string {
  return measure(word) > 1 && endsWithDoubleConsonant(word) && word.endsWith("l") ? word.slice(0, -1) : word;
}
