import { createStore, type StoreApi } from "zustand/vanilla";

/** A short message the canvas announces (role="status"): a refused connection's reason, "Copied 2 nodes"... */
export interface Notice {
  id: number;
  tone: "info" | "success" | "warning" | "error";
  message: string;
}

export interface NoticeState {
  notice: Notice | null;
  announce(message: string, tone?: Notice["tone"]): void;
  dismiss(): void;
}

export type NoticeStore = StoreApi<NoticeState>;

export function createNoticeStore(): NoticeStore {
  let next = 1;
  return createStore<NoticeState>()((set) => ({
    notice: null,
    announce: (message, tone = "info") => set({ notice: { id: next++, tone, message } }),
    dismiss: () => set({ notice: null }),
  }));
}
