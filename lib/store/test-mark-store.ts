import { createStore, type StoreApi } from "zustand/vanilla";

/** The nodes the last Test marked: node id → the cases that failed there (their names). */
export interface TestMarkState {
  failing: Record<string, string[]>;
  mark(failing: Record<string, string[]>): void;
  clear(): void;
}

export type TestMarkStore = StoreApi<TestMarkState>;

export function createTestMarkStore(): TestMarkStore {
  return createStore<TestMarkState>()((set) => ({
    failing: {},
    mark: (failing) => set({ failing }),
    clear: () => set({ failing: {} }),
  }));
}

/** The cases failing at one node (undefined when none): a node reads only its own. */
export function nodeTestFailures(id: string) {
  return (state: TestMarkState) => state.failing[id];
}
