import type { CanvasEdge, CanvasNode } from "./canvas-document";

/** One state of the document that undo can return to. Node objects are shared, never copied. */
export interface Snapshot {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

export interface History {
  past: Snapshot[];
  future: Snapshot[];
}

/** How many steps back undo reaches. */
export const historyLimit = 100;

/** History after an edit: the state before it is kept, redo is forgotten. */
export function recordEdit(history: History, before: Snapshot): History {
  const past = history.past.length >= historyLimit ? history.past.slice(1) : history.past.slice();
  past.push(before);
  return { past, future: [] };
}

/** Steps back: the current state goes to the future, the last past state is returned. */
export function stepBack(history: History, current: Snapshot): { history: History; state: Snapshot } | null {
  const state = history.past.at(-1);
  if (!state) return null;
  return { history: { past: history.past.slice(0, -1), future: [...history.future, current] }, state };
}

/** Steps forward again after an undo. */
export function stepForward(history: History, current: Snapshot): { history: History; state: Snapshot } | null {
  const state = history.future.at(-1);
  if (!state) return null;
  return { history: { past: [...history.past, current], future: history.future.slice(0, -1) }, state };
}
