import type { Call } from "../manifest";
import { insertedText, renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import type { CallContext, CallReply } from "./execute-call";

/** A loop never goes over more items than this (each pass is a run of its nodes, under the run's per-node cap too). */
export const maxLoopItems = 1000;

/**
 * `loop: open / read / advance`: no request. A loop across nodes, kept for
 * the run under its `key`: the node that opens it puts out each item, the
 * nodes of its body run, and the node that advances it signals the first
 * one again until the items are used up.
 *
 * - open: `value` is the list; answers `{ item, index: 0, total }` (an
 *   empty list answers `{ item: null, index: 0, total: 0 }` and opens nothing);
 * - read: answers `{ item, index, total }` for the current item;
 * - advance: adds `value` to `collected` (a list spread into it, an empty
 *   value left out), moves on, answers `{ continuing,
 *   index, total, collected }`; a loop that is not continuing is closed.
 */
export async function loopStep(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  const fail = (message: string) => new CallFailure("template", `call '${call.name}': ${message}`, call.name);
  const evaluate = async (value: unknown, key: string) => {
    try {
      return await renderValue(value, scope, context.evaluator);
    } catch (error) {
      throw fail(`its '${key}' failed: ${(error as Error).message}`);
    }
  };
  const loops = context.loops;
  if (!loops) throw fail("loops are kept per run, and this call runs outside one");
  const key = insertedText(await evaluate(call.key ?? "", "key"));
  if (!key) throw fail("a loop needs a `key` (e.g. {{ run.nodeId }} in the node that opens it)");
  const reply = (response: unknown): CallReply => ({ status: 200, headers: {}, response });
  if (call.loop === "open") {
    const items = await evaluate(call.value, "value");
    if (!Array.isArray(items)) throw fail(`loop: open needs a list as its value, got ${items === null ? "null" : typeof items}`);
    if (items.length > maxLoopItems) throw fail(`a loop of ${items.length} items is more than the ${maxLoopItems} allowed`);
    if (items.length === 0) {
      loops.delete(key);
      return reply({ item: null, index: 0, total: 0 });
    }
    loops.set(key, { items: [...items], index: 0, collected: [] });
    return reply({ item: items[0], index: 0, total: items.length });
  }
  const loop = loops.get(key);
  if (!loop) throw fail(`no loop '${key.slice(0, 100)}' is open in this run (the node that opens it must run first, and a loop that finished is closed)`);
  if (call.loop === "read") return reply({ item: loop.items[loop.index], index: loop.index, total: loop.items.length });
  const collected = call.value === undefined ? undefined : await evaluate(call.value, "value");
  // A list is spread, so what the loop collected is one flat list.
  if (Array.isArray(collected)) loop.collected.push(...collected);
  else if (collected !== undefined && collected !== null && collected !== "") loop.collected.push(collected);
  loop.index += 1;
  const continuing = loop.index < loop.items.length;
  if (!continuing) loops.delete(key);
  return reply({ continuing, index: loop.index, total: loop.items.length, collected: [...loop.collected] });
}
