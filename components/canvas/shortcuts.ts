/** The canvas's keyboard shortcuts, as the help dialog lists them (Ctrl is ⌘ on a Mac). */
export const shortcuts: readonly { keys: readonly string[]; action: string }[] = [
  { keys: ["Ctrl+Z"], action: "Undo" },
  { keys: ["Shift+Ctrl+Z", "Ctrl+Y"], action: "Redo" },
  { keys: ["Ctrl+C"], action: "Copy the selected nodes (and the edges between them)" },
  { keys: ["Ctrl+X"], action: "Cut the selected nodes" },
  { keys: ["Ctrl+V"], action: "Paste (also into another workflow)" },
  { keys: ["Ctrl+D"], action: "Duplicate the selected nodes" },
  { keys: ["Ctrl+A"], action: "Select every node" },
  { keys: ["Delete", "Backspace"], action: "Delete the selection" },
  { keys: ["Escape"], action: "Clear the selection, close a dialog" },
  { keys: ["Ctrl+S"], action: "Save now (changes are also saved automatically)" },
  { keys: ["Shift+Alt+T"], action: "Auto-layout (tidy up)" },
  { keys: ["1"], action: "Fit the workflow in view" },
  { keys: ["Shift+click", "Shift+drag"], action: "Select several nodes (Ctrl+click adds one)" },
  { keys: ["Arrow keys"], action: "Move the selected nodes" },
  { keys: ["Tab", "Enter"], action: "Go to a node or handle; Enter on one handle, then another, connects them" },
  { keys: ["?"], action: "Show these shortcuts" },
];

/** True when typing goes to a field, where the canvas's single-key shortcuts must not fire. */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit", "reset", "file"].includes(target.type);
  return false;
}
