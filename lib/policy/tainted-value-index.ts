/** Where a tainted text came from: its trace row, and the tool that returned it. */
export interface TaintSource {
  origin: string;
  server: string;
  tool: string;
}

/** Values shorter than this are not traced to a source (lib/policy/tainted-arguments.ts); it is also the index's window. */
export const minimumTracedLength = 4;

/** Texts (by their place in the index) that hold one window, ascending, each once. */
interface Posting {
  ids: Int32Array;
  size: number;
}

/** How many postings at most narrow the candidates before each is checked by `includes`. */
const narrowingPostings = 4;

/**
 * The tainted texts a node run took in, indexed so that "which of them
 * contain this value" costs what the value and its matches cost, not what
 * every earlier text costs. Each text's windows of `minimumTracedLength`
 * UTF-16 code units are hashed (a rolling hash) into postings; a value's
 * candidates are the texts in the postings of all its windows (narrowed by
 * the rarest few), and each candidate is then confirmed with `includes`.
 * So the answer is exactly the texts that contain the value, as a scan
 * would find them: a hash collision only adds a candidate that the check
 * removes, and a text that contains the value contains every window of it.
 *
 * @example
 * const index = new TaintedValueIndex();
 * index.add("… mail attacker@example.com …", [{ origin: "r1", server: "web", tool: "search" }]);
 * index.find("attacker@example.com"); // [{ origin: "r1", server: "web", tool: "search" }]
 */
export class TaintedValueIndex {
  private readonly texts: string[] = [];
  /** The sources of each text, in the order they came (a text that brought several origins has one source per origin). */
  private readonly sourcesOf: Array<readonly TaintSource[]> = [];
  private readonly postings = new Map<number, Posting>();

  /** An index of these sources, in their order: one entry per run of consecutive sources with the same text. */
  static of(sources: ReadonlyArray<TaintSource & { text: string }>): TaintedValueIndex {
    const index = new TaintedValueIndex();
    for (let start = 0; start < sources.length; ) {
      let end = start + 1;
      while (end < sources.length && sources[end].text === sources[start].text) end++;
      index.add(sources[start].text, sources.slice(start, end).map(({ origin, server, tool }) => ({ origin, server, tool })));
      start = end;
    }
    return index;
  }

  /** How many texts were added. */
  get size(): number {
    return this.texts.length;
  }

  /** A tainted text, with the sources it stands for; after every text added before it. */
  add(text: string, sources: readonly TaintSource[]): void {
    const id = this.texts.length;
    this.texts.push(text);
    this.sourcesOf.push(sources);
    forEachWindow(text, (hash) => {
      let posting = this.postings.get(hash);
      if (!posting) this.postings.set(hash, (posting = { ids: new Int32Array(4), size: 0 }));
      else if (posting.ids[posting.size - 1] === id) return;
      if (posting.size === posting.ids.length) {
        const grown = new Int32Array(posting.ids.length * 2);
        grown.set(posting.ids);
        posting.ids = grown;
      }
      posting.ids[posting.size++] = id;
    });
  }

  /** The sources of every text that contains `value`, in the order the texts came: what `texts.filter((text) => text.includes(value))` would give. */
  find(value: string): TaintSource[] {
    const found: TaintSource[] = [];
    for (const id of this.candidates(value)) if (this.texts[id].includes(value)) for (const { origin, server, tool } of this.sourcesOf[id]) found.push({ origin, server, tool });
    return found;
  }

  /** Texts that may contain the value, ascending: every text that does, and perhaps a few that do not. */
  private candidates(value: string): Iterable<number> {
    // A value shorter than a window has no window to look up: every text is a candidate.
    if (value.length < minimumTracedLength) return this.texts.keys();
    const postings: Posting[] = [];
    const seen = new Set<Posting>();
    let missing = false;
    forEachWindow(value, (hash) => {
      const posting = this.postings.get(hash);
      if (!posting) missing = true;
      else if (!seen.has(posting)) {
        seen.add(posting);
        postings.push(posting);
      }
    });
    if (missing) return [];
    postings.sort((a, b) => a.size - b.size);
    let candidates: number[] = Array.from(postings[0].ids.subarray(0, postings[0].size));
    for (const posting of postings.slice(1, narrowingPostings)) {
      if (candidates.length <= 1) break;
      candidates = candidates.filter((id) => holds(posting, id));
    }
    return candidates;
  }
}

const base = 0x01000193;
/** base^(window - 1), mod 2^32: what the code unit leaving the window weighed. */
const leaving = Math.imul(Math.imul(base, base), base);

/** Calls `visit` with the hash of each window of `minimumTracedLength` code units of the text, left to right. */
function forEachWindow(text: string, visit: (hash: number) => void): void {
  if (text.length < minimumTracedLength) return;
  let hash = 0;
  for (let index = 0; index < text.length; index++) {
    if (index >= minimumTracedLength) hash = (hash - Math.imul(text.charCodeAt(index - minimumTracedLength), leaving)) | 0;
    hash = (Math.imul(hash, base) + text.charCodeAt(index)) | 0;
    if (index >= minimumTracedLength - 1) visit(hash & 0x3fffffff);
  }
}

/** Whether the posting holds the text `id` (its ids are ascending). */
function holds(posting: Posting, id: number): boolean {
  let low = 0;
  let high = posting.size - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = posting.ids[middle];
    if (at === id) return true;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
