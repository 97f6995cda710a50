"use client";

import { useEffect } from "react";
import { isEditable } from "./shortcuts";

export interface ShortcutHandlers {
  undo(): void;
  redo(): void;
  deleteSelection(): void;
  selectAll(): void;
  clearSelection(): void;
  duplicate(): void;
  save(): void;
  layout(): void;
  fitView(): void;
  help(): void;
}

/**
 * The canvas's keyboard shortcuts (see shortcuts.ts). Single keys and
 * undo/redo are left to a field while typing in it; Ctrl+S works everywhere.
 * Nothing fires while a dialog is open: it has its own keys.
 */
export function useCanvasShortcuts(handlers: ShortcutHandlers): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === "s") {
        event.preventDefault();
        return handlers.save();
      }
      if (isEditable(event.target)) return;
      const act = (handler: () => void) => {
        event.preventDefault();
        handler();
      };
      if (mod && !event.altKey) {
        if (key === "z") return act(event.shiftKey ? handlers.redo : handlers.undo);
        if (key === "y") return act(handlers.redo);
        if (key === "a") return act(handlers.selectAll);
        if (key === "d") return act(handlers.duplicate);
        return;
      }
      if (event.key === "Delete" || event.key === "Backspace") return act(handlers.deleteSelection);
      if (event.key === "Escape") return act(handlers.clearSelection);
      if (event.key === "?") return act(handlers.help);
      if (event.shiftKey && event.altKey && event.code === "KeyT") return act(handlers.layout);
      if (event.key === "1" && !event.shiftKey && !event.altKey) return act(handlers.fitView);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [handlers]);
}
