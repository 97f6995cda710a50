import { parse } from "yaml";
import { renameRoots, mapStrings } from "./rename-roots";
import type { UnoversePackage } from "./unoverse-tree";

/**
 * Unoverse toolExchange files name things differently from Switchboard's;
 * the import translates them (each change is noted):
 * - `$ref: <fragment>` alone or with local keys: the package fragment is
 *   written into the node's file (deep-merged, local keys winning), so the
 *   translation below sees and changes all of it;
 * - `result` reads the answered call as `call` (Switchboard: `result`);
 *   `call.each` items as `part` (Switchboard: `call`); `transcript.assistant`
 *   the calls as `calls` (Switchboard: `toolCalls`);
 * - on a streamed model call, `call.match` and `continuity.match` name an
 *   event type: the call rule becomes a `when` over the event
 *   (`response.type === '…'`), and the continuity id is read from the last
 *   event of that type;
 * - a request body that appends `transcript` (the conversation so far) to a
 *   list gets that list as `resultsInto`.
 */
export function translateExchange(exchange: unknown, options: { pkg: UnoversePackage; streamed: boolean; body: unknown; notes: string[] }): unknown {
  const inlined = inlineRef(exchange, options.pkg, options.notes);
  if (!isRecord(inlined)) return inlined;
  const value: Record<string, unknown> = { ...inlined };
  const { notes } = options;
  const renamed: string[] = [];
  for (const key of ["result", "resultsGroup"]) {
    if (value[key] !== undefined && JSON.stringify(value[key]).match(/\bcall\./)) {
      value[key] = mapStrings(value[key], (text) => renameRoots(text, { call: "result" }));
      renamed.push(`${key} reads \`result\` (was \`call\`)`);
    }
  }
  if (isRecord(value.call)) {
    const call: Record<string, unknown> = { ...value.call };
    if (/\bpart\./.test(JSON.stringify(call))) {
      for (const key of Object.keys(call)) call[key] = mapStrings(call[key], (text) => renameRoots(text, { part: "call" }));
      renamed.push("call reads each fragment as `call` (was `part`)");
    }
    if (options.streamed && call.match !== undefined && call.each === undefined && isEventType(call.match)) {
      const types = eventTypes(call.match);
      const test = `response && ${typeTest("response", types)}`;
      call.when = typeof call.when === "string" && call.when.trim() ? `return (${test}) && (function () { ${expression(call.when)} })()` : `return !!(${test})`;
      delete call.match;
      renamed.push(`call.match ${types.join(", ")} (an event type on a stream) became a \`when\` over each event`);
    }
    value.call = call;
  }
  if (isRecord(value.continuity) && options.streamed && isEventType(value.continuity.match)) {
    const continuity = { ...value.continuity };
    const types = eventTypes(continuity.match);
    const events = "(Array.isArray(response) ? response : [response])";
    continuity.match = `return ${events}.some((e) => e && ${typeTest("e", types)})`;
    if (typeof continuity.from === "string") {
      continuity.from = `return (function (response) { ${expression(continuity.from)} })(${events}.filter((e) => e && ${typeTest("e", types)}).at(-1))`;
    }
    value.continuity = continuity;
    renamed.push(`continuity reads the last ${types.join(", ")} event of the stream`);
  }
  if (isRecord(value.transcript) && value.transcript.assistant !== undefined && /\bcalls\b/.test(JSON.stringify(value.transcript.assistant))) {
    value.transcript = { ...value.transcript, assistant: mapStrings(value.transcript.assistant, (text) => renameRoots(text, { calls: "toolCalls" })) };
    renamed.push("transcript.assistant reads `toolCalls` (was `calls`)");
  }
  const into = typeof options.body === "string" ? /([A-Za-z_$][\w$]*)\s*:\s*[\w$.]+\.concat\(\s*transcript\s*\)/.exec(options.body)?.[1] : undefined;
  if (into && value.resultsInto === undefined) {
    value.resultsInto = into;
    renamed.push(`resultsInto: ${into} (where the request body appends \`transcript\`)`);
  }
  if (renamed.length) notes.push(`toolExchange translated: ${renamed.join("; ")}`);
  return value;
}

/**
 * Unoverse `from: tool` rows read the call as `call` (`call.name`,
 * `call.args`, `call.output`); Switchboard's read `tool` (`tool.name`,
 * `tool.arguments`, `tool.result`).
 */
export function translateToolRows(events: unknown, notes: string[]): unknown {
  if (!Array.isArray(events)) return events;
  let changed = false;
  const rows = events.map((row) => {
    if (!isRecord(row) || row.from !== "tool") return row;
    const translated = mapStrings(row, (text, key) => {
      if (key !== "value" && key !== "when") return text;
      const renamed = renameRoots(text, { call: "tool" }).replace(/\btool\.output\b/g, "tool.result").replace(/\btool\.args\b/g, "tool.arguments");
      changed ||= renamed !== text;
      return renamed;
    });
    return translated;
  });
  if (changed) notes.push("`from: tool` rows read the call as `tool` (call.name → tool.name, call.args → tool.arguments, call.output → tool.result, the answer parsed when it is JSON)");
  return rows;
}

function inlineRef(value: unknown, pkg: UnoversePackage, notes: string[]): unknown {
  if (!isRecord(value) || typeof value.$ref !== "string") return value;
  const [stem, fragment] = value.$ref.split("#", 2);
  const text = pkg.shared.get(stem);
  if (text === undefined) return value;
  let base: unknown;
  try {
    base = parse(text);
  } catch {
    return value;
  }
  for (const key of fragment ? fragment.split("/") : []) base = isRecord(base) ? base[key] : undefined;
  if (!isRecord(base)) return value;
  const { $ref: _ref, ...local } = value;
  notes.push(`toolExchange: the package's shared/${stem}.yaml written into the node's file`);
  return merge(base, local);
}

function merge(base: Record<string, unknown>, local: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, item] of Object.entries(local)) result[key] = isRecord(item) && isRecord(result[key]) ? merge(result[key] as Record<string, unknown>, item) : item;
  return result;
}

/** An event type (or list of them), not a path or an expression: `response.output_item.done`. */
function isEventType(value: unknown): boolean {
  return eventTypes(value).length > 0 && eventTypes(value).every((type) => /^[A-Za-z0-9_.:-]+$/.test(type));
}

function eventTypes(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string" && item.length > 0);
}

function typeTest(variable: string, types: readonly string[]): string {
  return `[${types.map((type) => `'${type}'`).join(", ")}].includes(${variable}.type || ${variable}.event)`;
}

/** A template or expression as the body of a function: `return …`. */
function expression(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("return ")) return trimmed;
  const whole = /^\{\{\s*([A-Za-z_$][\w$.]*)\s*\}\}$/.exec(trimmed);
  return whole ? `return ${whole[1]}` : `return ${JSON.stringify(trimmed)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
