import { createStore, type StoreApi } from "zustand/vanilla";

/** What is selected on the canvas, as React Flow reports it. The inspector and the clipboard read it. */
export interface SelectionState {
  nodeIds: readonly string[];
  edgeIds: readonly string[];
  setSelection(nodeIds: readonly string[], edgeIds: readonly string[]): void;
}

export type SelectionStore = StoreApi<SelectionState>;

export function createSelectionStore(): SelectionStore {
  return createStore<SelectionState>()((set, get) => ({
    nodeIds: [],
    edgeIds: [],
    setSelection(nodeIds, edgeIds) {
      const current = get();
      if (sameIds(current.nodeIds, nodeIds) && sameIds(current.edgeIds, edgeIds)) return;
      set({ nodeIds: [...nodeIds], edgeIds: [...edgeIds] });
    },
  }));
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
