import { stem } from "./porter-stemmer";
import type { RelatedTerm, Thesaurus } from "./thesaurus";
import { splitWords } from "./tokenize";

/**
 * Software and business shorthand that WordNet 3.1 (2011, general English)
 * lacks or ranks far down: abbreviations, and the software sense of common
 * words ("bug" as an issue, "ship" as release). Kept short and generic: a
 * word belongs here only if it is standard usage, not to win one query.
 * Written beside the labelled set in bench/: its bench prints the figures
 * with and without this list, so its share is visible.
 */
const equivalentGroups: readonly string[] = [
  "repo = repository",
  "pr = pull request",
  "db = database",
  "k8s = kubernetes",
  "env = environment",
  "config = configuration",
  "auth = authentication",
  "login = signin",
  "dm = direct message",
  "msg = message",
  "doc = document",
  "docs = documentation",
  "pic = picture",
  "img = image",
  "photo = picture image",
  "info = information",
  "url = link",
  "app = application",
  "prod = production",
  "stats = statistics",
  "temp = temperature",
  "qty = quantity",
  "tz = timezone",
  "sms = text message",
  "email = mail",
  "ci = continuous integration",
  "vm = virtual machine",
  "ops = operations",
];

const relatedGroups: readonly string[] = [
  // The verbs of tool APIs: a job says "find", the tool says "search".
  "find search lookup query locate",
  "get fetch retrieve read",
  "create add new make",
  "delete remove erase",
  "update edit change modify",
  "list show enumerate",
  "send post submit",
  "bug issue defect ticket",
  "ship release deploy",
  "outage incident downtime down",
  "page notify alert",
  "crash exception error",
  "meeting event appointment",
];

/**
 * "a b c" relates every word to every other; "abbr = long form" relates the
 * short form to each word of the long one and back, but not the long
 * form's words to each other ("pull" is no synonym of "request").
 */
function groupThesaurus(groups: readonly string[], weight: number): Map<string, RelatedTerm[]> {
  const related = new Map<string, RelatedTerm[]>();
  const link = (from: string, to: string): void => {
    if (from === to) return;
    const terms = related.get(from) ?? [];
    related.set(from, terms);
    if (!terms.some((term) => term.term === to)) terms.push({ term: to, weight });
  };
  for (const group of groups) {
    const [short, long] = group.split("=");
    if (long !== undefined) {
      const shortStems = splitWords(short).map(stem);
      for (const from of shortStems) for (const to of splitWords(long).map(stem)) { link(from, to); link(to, from); }
      continue;
    }
    const stems = splitWords(group).map(stem);
    for (const from of stems) for (const to of stems) link(from, to);
  }
  return related;
}

/** The hand-written relations: equivalents at 0.9, near synonyms at 0.6. */
export function domainThesaurus(): Thesaurus {
  const equivalents = groupThesaurus(equivalentGroups, 0.9);
  const near = groupThesaurus(relatedGroups, 0.6);
  return {
    related(term) {
      const byTerm = new Map<string, number>();
      for (const source of [equivalents, near]) {
        for (const entry of source.get(term) ?? []) byTerm.set(entry.term, Math.max(byTerm.get(entry.term) ?? 0, entry.weight));
      }
      return [...byTerm].map(([related, weight]) => ({ term: related, weight }));
    },
  };
}
