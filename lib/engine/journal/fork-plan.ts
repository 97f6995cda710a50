import { z } from "zod";
import type { RecordedModelTurn } from "./agent-steps";
import type { RecordedStep } from "./run-journal";
import type { RecordedCall } from "./step-recorder";
import { stableId } from "../../run-model";

/** A journal step as a fork reads it: its entry, when it was recorded (ISO), and its place in the run's order (0: unknown). */
export interface ForkSource extends RecordedStep {
  recordedAt: string;
  sequence: number;
}

/**
 * Whether one step was taken before another: by the run's order when both
 * have one (two steps can share a millisecond), else by time, where a step
 * stamped in the other's own millisecond counts as after it.
 */
function takenBefore(source: ForkSource, target: ForkSource): boolean {
  if (source.sequence > 0 && target.sequence > 0) return source.sequence < target.sequence;
  return source.recordedAt < target.recordedAt;
}

/** The steps a person may fork at: what a step answered, which a fork may replace. */
export const forkableKinds: ReadonlySet<RecordedStep["kind"]> = new Set(["model-turn", "tool-call", "node-result"]);

/** Entries kept beside a call: its start, a person's choice, an approval's wait and decision. */
const besideSuffixes = new Set(["start", "choice", "waiting", "decision"]);

export type ForkProblem = { field: "at" | "result" | "prompt" | "model" | "document"; message: string };

export type ForkPlan = { ok: true; steps: RecordedStep[] } | { ok: false; problem: ForkProblem };

/**
 * Which of a run's journal entries a fork at `at` starts with, and the
 * forked step's new value. Kept: every step of the forked step's node run
 * up to and including it (by turn and call index), every step of other node
 * runs taken before it (see takenBefore), the entries beside a kept call, and the
 * model contexts. The forked step's value is `edit` when given (for a tool
 * call its result, for a model turn its answer `{text, toolCalls}`, for a
 * step node its outputs), else what was recorded. A run started from these
 * replays all of them without calling anything and goes on live after.
 * With `reask` (a fork with another prompt, model or document) a forked
 * model turn or step node's result is left out, so it runs live against the
 * change; a forked tool call is kept as recorded (its arguments came from
 * the recorded turn) and the turn after it is the first one asked.
 * Pure: lib/db/run-fork.ts reads and writes the rows.
 *
 * @example
 * planFork(steps, "agent#1/t3/c0", { total: 0 }) // { ok: true, steps: [...] }
 */
export function planFork(sources: readonly ForkSource[], at: string, edit?: { value: unknown }, options: { reask?: boolean } = {}): ForkPlan {
  const byKey = new Map(sources.map((source) => [source.key, source]));
  const target = byKey.get(at);
  if (!target || !forkableKinds.has(target.kind)) {
    const offered = sources.filter((source) => forkableKinds.has(source.kind)).map((source) => source.key);
    const hint = offered.length ? `; its steps are e.g. ${offered.slice(0, 5).join(", ")}` : "; it recorded no step to fork at";
    return { ok: false, problem: { field: "at", message: `the run has no step "${at}" to fork at (a model turn, a tool call or a step node's result)${hint}` } };
  }
  const edited = edit === undefined ? { ok: true as const, value: target.value } : editedValue(target, edit.value);
  if (!edited.ok) return { ok: false, problem: { field: "result", message: edited.message } };
  const place = placeOf(at)!;
  const keep = (source: ForkSource): boolean => {
    if (source.kind === "model-context") return true;
    const own = placeOf(source.key);
    if (!own) return false;
    if (own.beside) return byKey.has(own.base) && keep(byKey.get(own.base)!);
    if (own.nodeRun === place.nodeRun) return own.turn < place.turn || (own.turn === place.turn && own.call <= place.call);
    if (!takenBefore(source, target)) return false;
    // A call is kept only with the turn that asked for it (and so are the entries beside it): replayed under a turn asked again, it could answer a different call.
    const turn = own.call >= 0 ? byKey.get(turnOf(source.key)) : undefined;
    return !turn || keep(turn);
  };
  const steps = sources.filter((source) => source.key !== at && keep(source)).map(({ key, kind, value }) => ({ key, kind, value }));
  if (options.reask && target.kind !== "tool-call") return { ok: true, steps };
  return { ok: true, steps: [...steps, { key: at, kind: target.kind, value: edited.value }] };
}

/** The turn a call's key belongs to: `agent#1/t3/c0` → `agent#1/t3`. */
function turnOf(key: string): string {
  return key.replace(/\/c\d+$/, "");
}

/** Where a key sits in its node run: `agent#1/t3/c0` → node run `agent#1`, turn 3, call 0 (a turn itself is call -1). */
function placeOf(key: string): { nodeRun: string; turn: number; call: number; beside: boolean; base: string } | null {
  // A later attempt's start or choice (`…/c0/start/2`) sits beside its call like the first's.
  const attempt = /^(.+)\/(start|choice)\/\d+$/.exec(key);
  if (attempt) {
    const inner = placeOf(attempt[1]);
    return inner ? { ...inner, beside: true, base: attempt[1] } : null;
  }
  const slash = key.lastIndexOf("/");
  if (slash > 0 && besideSuffixes.has(key.slice(slash + 1))) {
    const base = key.slice(0, slash);
    const inner = placeOf(base);
    return inner ? { ...inner, beside: true, base } : null;
  }
  const match = /^(.+)\/(?:t(\d+)(?:\/c(\d+))?|step)$/.exec(key);
  if (!match) return null;
  return { nodeRun: match[1], turn: match[2] === undefined ? 0 : Number(match[2]), call: match[3] === undefined ? -1 : Number(match[3]), beside: false, base: key };
}

const editedAnswer = z.object({
  text: z.string().default(""),
  toolCalls: z.array(z.object({ id: z.string().optional(), name: z.string().min(1), arguments: z.unknown().default({}) })).default([]),
});

/** The forked step's value with the person's edit in it. */
function editedValue(target: ForkSource, value: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (target.kind === "tool-call") {
    const call: RecordedCall = { outcome: { output: typeof value === "string" ? value : JSON.stringify(value), isError: false, ...(value !== null && typeof value === "object" ? { structured: value } : {}) } };
    return { ok: true, value: call };
  }
  if (target.kind === "node-result") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "a step node's result is its outputs: a JSON object with one property per output" };
    return { ok: true, value: { status: "completed", outputs: value, error: null, turns: 0 } };
  }
  const parsed = editedAnswer.safeParse(typeof value === "string" ? { text: value } : value);
  if (!parsed.success) return { ok: false, message: `a model's answer is {"text": "…", "toolCalls": [{"name": "…", "arguments": {…}}]}: ${parsed.error.issues[0]?.path.join(".") || "the answer"} ${parsed.error.issues[0]?.message}` };
  const recorded = target.value as RecordedModelTurn;
  const toolCalls = parsed.data.toolCalls.map((call, index) => ({
    id: call.id ?? `fork_${index + 1}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    input: call.arguments,
  }));
  // The protocol's replay data answered the old turn: without it, the next live turn is built from text and calls.
  const { replay: _replay, ...turn } = recorded.turn;
  void _replay;
  const answer = { ...turn, text: parsed.data.text, toolCalls, finishReason: toolCalls.length ? "tool-calls" : "stop" };
  return { ok: true, value: { ...recorded, turn: answer, ...(recorded.row ? { row: { ...recorded.row, text: answer.text, toolCalls, finishReason: answer.finishReason } } : {}) } };
}

/**
 * The ids of a fork's rows, from its parent's: a node run's or a call's id
 * is derived from the run and its journal key (see stableId), and a key
 * inside a task's sub-flow starts with the task call's id, so each key is
 * mapped segment by segment, outermost first.
 */
export function forkIdMap(parentRunId: string, forkRunId: string, keys: Iterable<string>): { ids: Map<string, string>; key(key: string): string } {
  const ids = new Map<string, string>();
  const mapKey = (key: string) => key.split("/").map((segment) => ids.get(segment) ?? segment).join("/");
  const prefixes = new Set<string>();
  for (const key of keys) {
    const segments = key.split("/");
    for (let end = 1; end <= segments.length; end++) prefixes.add(segments.slice(0, end).join("/"));
  }
  // A sub-flow's keys name the task call's id, known once the call's own key is mapped: one pass per level of nesting.
  for (let pass = 0, changed = true; changed && pass < 16; pass++) {
    changed = false;
    for (const prefix of prefixes) {
      const from = stableId(parentRunId, prefix);
      const to = stableId(forkRunId, mapKey(prefix));
      if (ids.get(from) !== to) (ids.set(from, to), (changed = true));
    }
  }
  return { ids, key: mapKey };
}

/** A JSON value with every string that is a mapped id replaced (row ids in turn rows, taint origins, parent call ids). */
export function withMappedIds<T>(value: T, ids: ReadonlyMap<string, string>): T {
  if (typeof value === "string") return (ids.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((item) => withMappedIds(item, ids)) as T;
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withMappedIds(item, ids)])) as T;
  return value;
}
