import { getPath } from "../ai/dot-path";
import { compileSchema } from "../manifest";
import { jsonChanges, jsonEqual, type JsonChange } from "../trace";

/**
 * How one value is checked against what was expected. `path` is a dot path
 * into both values (`answer.items.0.name`); absent, the whole value.
 *
 * - exact: equal, deeply (paths claimed by a looser scorer in the same list are left out; see scoreAll)
 * - contains: the text (or a list's item) contains `value`
 * - regex: the text matches `pattern`
 * - number: within `tolerance` of the expected number
 * - schema: the value is valid against a JSON Schema
 * - ignore: the field is not compared at all (`*` matches every key or item: `items.*.id`)
 * - judge: a model scores the value 0-1 against a rubric; passes at `threshold`
 */
export type Scorer =
  | { kind: "exact"; path?: string }
  | { kind: "contains"; value: string; path?: string }
  | { kind: "regex"; pattern: string; flags?: string; path?: string }
  | { kind: "number"; tolerance: number; path?: string }
  | { kind: "schema"; schema: Record<string, unknown>; path?: string }
  | { kind: "ignore"; path: string }
  | { kind: "judge"; rubric: string; threshold: number; modelNode?: string };

export type ScorerKind = Scorer["kind"];

/** One scorer's verdict: `score` 0..1, and why, in words a reviewer reads. */
export type Score = { score: number; pass: boolean; reason: string };

/** What a judge is asked, and how it answers. */
export type JudgeRequest = { rubric: string; actual: unknown; expected: unknown };
export type JudgeVerdict = { score: number; reason: string };

/** What scoring may reach beyond the values: the judge's model. */
export type ScoreContext = { judge?: (request: JudgeRequest) => Promise<JudgeVerdict> };

export const scorerKinds: readonly ScorerKind[] = ["exact", "contains", "regex", "number", "schema", "ignore", "judge"];

/**
 * A scorer written wrongly in a case file, a dataset's settings or a form:
 * the author's mistake. `place` names the field (`assertions.outputs[1].pattern`).
 */
export class ScorerError extends Error {
  override name = "ScorerError";
  readonly code = "invalid-scorer";
  constructor(
    message: string,
    readonly place: string,
    options?: { cause?: unknown },
  ) {
    super(`${place}: ${message}`, options);
  }
}

/**
 * Reads a scorer from parsed JSON or YAML; anything wrong is a ScorerError
 * naming the field under `place`.
 *
 * @example parseScorer({ kind: "regex", pattern: "^\\d+ km$" }, "assertions.outputs[0]")
 */
export function parseScorer(value: unknown, place: string): Scorer {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ScorerError("a scorer is an object with a kind", place);
  const fields = value as Record<string, unknown>;
  const kind = fields.kind;
  if (typeof kind !== "string" || !scorerKinds.includes(kind as ScorerKind)) {
    throw new ScorerError(`kind must be one of ${scorerKinds.join(", ")}${kind === undefined ? "" : ` (got ${JSON.stringify(kind)})`}`, `${place}.kind`);
  }
  const known = new Set(["kind", ...allowedFields[kind as ScorerKind]]);
  for (const key of Object.keys(fields)) {
    if (!known.has(key)) throw new ScorerError(`a ${kind} scorer has no field '${key}' (it takes ${[...known].join(", ")})`, `${place}.${key}`);
  }
  const path = optionalText(fields, "path", place);
  const at = path === undefined ? {} : { path };
  switch (kind as ScorerKind) {
    case "exact":
      return { kind: "exact", ...at };
    case "contains":
      return { kind: "contains", value: requiredText(fields, "value", place), ...at };
    case "regex": {
      const pattern = requiredText(fields, "pattern", place);
      const flags = optionalText(fields, "flags", place);
      try {
        new RegExp(pattern, flags);
      } catch (error) {
        throw new ScorerError(`not a valid regular expression: ${(error as Error).message}`, `${place}.pattern`, { cause: error });
      }
      return { kind: "regex", pattern, ...(flags === undefined ? {} : { flags }), ...at };
    }
    case "number": {
      const tolerance = fields.tolerance;
      if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0) throw new ScorerError("tolerance must be a number ≥ 0", `${place}.tolerance`);
      return { kind: "number", tolerance, ...at };
    }
    case "schema": {
      const schema = fields.schema;
      if (schema === null || typeof schema !== "object" || Array.isArray(schema)) throw new ScorerError("schema must be a JSON Schema object", `${place}.schema`);
      const compiled = compileSchema(schema);
      if (!compiled.ok) throw new ScorerError(`not a valid JSON Schema: ${compiled.message}`, `${place}.schema`);
      return { kind: "schema", schema: schema as Record<string, unknown>, ...at };
    }
    case "ignore":
      if (path === undefined || path === "") throw new ScorerError("an ignore scorer needs the path it ignores", `${place}.path`);
      return { kind: "ignore", path };
    case "judge": {
      const rubric = requiredText(fields, "rubric", place);
      const threshold = fields.threshold;
      if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) throw new ScorerError("threshold must be a number from 0 to 1", `${place}.threshold`);
      const modelNode = optionalText(fields, "modelNode", place);
      return { kind: "judge", rubric, threshold, ...(modelNode === undefined ? {} : { modelNode }) };
    }
  }
}

const allowedFields: Record<ScorerKind, readonly string[]> = {
  exact: ["path"],
  contains: ["value", "path"],
  regex: ["pattern", "flags", "path"],
  number: ["tolerance", "path"],
  schema: ["schema", "path"],
  ignore: ["path"],
  judge: ["rubric", "threshold", "modelNode"],
};

function requiredText(fields: Record<string, unknown>, key: string, place: string): string {
  const value = fields[key];
  if (typeof value !== "string" || value === "") throw new ScorerError(`${key} must be a non-empty string`, `${place}.${key}`);
  return value;
}

function optionalText(fields: Record<string, unknown>, key: string, place: string): string | undefined {
  const value = fields[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ScorerError(`${key} must be a string`, `${place}.${key}`);
  return value;
}

/**
 * Scores `actual` against `expected` with one scorer. Deterministic scorers
 * score 1 or 0; a judge scores 0..1 and passes at its threshold. A judge
 * with no model in `context` fails, saying so.
 *
 * @example await score({ kind: "number", tolerance: 0.5, path: "km" }, { km: 42.3 }, { km: 42.195 }, {}) // { score: 1, pass: true, … }
 */
export async function score(scorer: Scorer, actual: unknown, expected: unknown, context: ScoreContext): Promise<Score> {
  switch (scorer.kind) {
    case "exact":
      return exactScore(at(actual, scorer.path), at(expected, scorer.path), scorer.path);
    case "contains":
      return containsScore(at(actual, scorer.path), scorer.value, scorer.path);
    case "regex":
      return regexScore(at(actual, scorer.path), scorer.pattern, scorer.flags, scorer.path);
    case "number":
      return numberScore(at(actual, scorer.path), at(expected, scorer.path), scorer.tolerance, scorer.path);
    case "schema":
      return schemaScore(at(actual, scorer.path), scorer.schema, scorer.path);
    case "ignore":
      return verdict(true, `${scorer.path} is not compared`);
    case "judge":
      return judgeScore(scorer, actual, expected, context);
  }
}

/**
 * Scores with a list of scorers as one assertion: a path a looser scorer
 * names (ignore, contains, regex, number, schema) is left out of the list's
 * exact comparisons, so loosening a field never also demands it be equal.
 * Each scorer's own verdict is returned, in order.
 *
 * @example scoreAll([{ kind: "exact" }, { kind: "ignore", path: "id" }], { id: 2, a: 1 }, { id: 1, a: 1 }, {}) // both pass
 */
export async function scoreAll(scorers: readonly Scorer[], actual: unknown, expected: unknown, context: ScoreContext): Promise<Score[]> {
  const loosened = scorers.flatMap((scorer) => (scorer.kind !== "exact" && scorer.kind !== "judge" && scorer.path ? [scorer.path] : []));
  const results: Score[] = [];
  for (const scorer of scorers) {
    if (scorer.kind === "exact" && loosened.length > 0) {
      const within = loosened.filter((path) => scorer.path === undefined || path === scorer.path || path.startsWith(`${scorer.path}.`));
      if (within.some((path) => path === scorer.path)) {
        results.push(verdict(true, `${scorer.path} is compared by a looser scorer`));
        continue;
      }
      const strip = within.map((path) => (scorer.path === undefined ? path : path.slice(scorer.path.length + 1)));
      results.push(exactScore(withoutPaths(at(actual, scorer.path), strip), withoutPaths(at(expected, scorer.path), strip), scorer.path));
      continue;
    }
    results.push(await score(scorer, actual, expected, context));
  }
  return results;
}

/** A list's overall verdict: passes when every scorer passes; the score is the mean. */
export function combineScores(scores: readonly Score[]): Score {
  if (scores.length === 0) return verdict(true, "nothing to check");
  const failed = scores.filter((item) => !item.pass);
  const mean = scores.reduce((sum, item) => sum + item.score, 0) / scores.length;
  return { score: mean, pass: failed.length === 0, reason: (failed.length ? failed : scores).map((item) => item.reason).join("; ") };
}

function at(value: unknown, path: string | undefined): unknown {
  return path === undefined || path === "" ? value : getPath(value, path);
}

function label(path: string | undefined): string {
  return path ? path : "the value";
}

function verdict(pass: boolean, reason: string): Score {
  return { score: pass ? 1 : 0, pass, reason };
}

function exactScore(actual: unknown, expected: unknown, path: string | undefined): Score {
  // A replay compares every call and turn: equal values (the usual case) are told apart without building a diff.
  if (jsonEqual(actual, expected)) return verdict(true, `${label(path)} is equal`);
  const changes = jsonChanges(expected, actual);
  if (changes.length === 0) return verdict(true, `${label(path)} is equal`);
  const shown = changes.slice(0, 3).map((change) => describeChange(change, path)).join("; ");
  return verdict(false, `${shown}${changes.length > 3 ? `; and ${changes.length - 3} more` : ""}`);
}

function describeChange(change: JsonChange, base: string | undefined): string {
  const where = [base, change.path].filter(Boolean).join(".") || "the value";
  switch (change.kind) {
    case "changed":
      return `${where}: expected ${brief(change.before)}, got ${brief(change.after)}`;
    case "added":
      return `${where}: not expected, got ${brief(change.after)}`;
    case "removed":
      return `${where}: expected ${brief(change.before)}, missing`;
  }
}

/** A value short enough for a reason line. */
export function brief(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function textOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function containsScore(actual: unknown, needle: string, path: string | undefined): Score {
  if (Array.isArray(actual)) {
    const found = actual.some((item) => item === needle || (textOf(item) ?? "").includes(needle));
    return verdict(found, found ? `${label(path)} has an item containing ${brief(needle)}` : `${label(path)} has no item containing ${brief(needle)}`);
  }
  const text = textOf(actual);
  if (text === undefined) return verdict(false, `${label(path)} is missing (expected it to contain ${brief(needle)})`);
  const found = text.includes(needle);
  return verdict(found, found ? `${label(path)} contains ${brief(needle)}` : `${label(path)} ${brief(actual)} does not contain ${brief(needle)}`);
}

function regexScore(actual: unknown, pattern: string, flags: string | undefined, path: string | undefined): Score {
  const text = textOf(actual);
  if (text === undefined) return verdict(false, `${label(path)} is missing (expected it to match /${pattern}/${flags ?? ""})`);
  const matches = new RegExp(pattern, flags).test(text);
  return verdict(matches, `${label(path)} ${matches ? "matches" : `${brief(actual)} does not match`} /${pattern}/${flags ?? ""}`);
}

function numberScore(actual: unknown, expected: unknown, tolerance: number, path: string | undefined): Score {
  const got = toNumber(actual);
  const want = toNumber(expected);
  if (want === undefined) return verdict(false, `${label(path)}: the expected value ${brief(expected)} is not a number`);
  if (got === undefined) return verdict(false, `${label(path)}: expected a number near ${want}, got ${brief(actual)}`);
  const off = Math.abs(got - want);
  const pass = off <= tolerance;
  return verdict(pass, `${label(path)}: ${got} is ${pass ? "within" : "not within"} ${tolerance} of ${want}`);
}

/** A number, or numeric text ("42.2"). */
function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return undefined;
}

function schemaScore(actual: unknown, schema: Record<string, unknown>, path: string | undefined): Score {
  const compiled = compileSchema(schema);
  if (!compiled.ok) return verdict(false, `${label(path)}: the schema does not compile: ${compiled.message}`);
  if (actual === undefined) return verdict(false, `${label(path)} is missing (expected a value matching the schema)`);
  const valid = compiled.validate(actual);
  return verdict(valid, valid ? `${label(path)} matches the schema` : `${label(path)} does not match the schema: ${compiled.errors()}`);
}

async function judgeScore(scorer: Extract<Scorer, { kind: "judge" }>, actual: unknown, expected: unknown, context: ScoreContext): Promise<Score> {
  if (!context.judge) return { score: 0, pass: false, reason: "no model to judge with (give the judge a modelNode, or run with a model)" };
  let answer: JudgeVerdict;
  try {
    answer = await context.judge({ rubric: scorer.rubric, actual, expected });
  } catch (error) {
    return { score: 0, pass: false, reason: `the judge failed: ${(error as Error).message}` };
  }
  const value = Number.isFinite(answer.score) ? Math.min(1, Math.max(0, answer.score)) : 0;
  const pass = value >= scorer.threshold;
  return { score: value, pass, reason: `judged ${value.toFixed(2)} (needs ${scorer.threshold}): ${answer.reason}` };
}

/**
 * A copy of `value` without the fields at `paths` (dot paths; `*` matches
 * every key or item). A list item is replaced by null rather than removed,
 * so the items after it still line up.
 */
export function withoutPaths(value: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0 || value === null || typeof value !== "object") return value;
  const copy = structuredClone(value);
  for (const path of paths) removeAt(copy, path.split(".").filter((part) => part !== ""));
  return copy;
}

function removeAt(target: unknown, parts: readonly string[]): void {
  if (parts.length === 0 || target === null || typeof target !== "object") return;
  const [head, ...rest] = parts;
  const keys = head === "*" ? Object.keys(target) : [head];
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(target, key)) continue;
    if (rest.length > 0) removeAt((target as Record<string, unknown>)[key], rest);
    else if (Array.isArray(target)) target[Number(key)] = null;
    else delete (target as Record<string, unknown>)[key];
  }
}
