"use client";

import { ModalDialog } from "@/components/ui/modal-dialog";
import { shortcuts } from "./shortcuts";

/** The keyboard shortcuts, opened with ? or the toolbar's button. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ModalDialog open={open} title="Keyboard shortcuts" onClose={onClose} wide>
      <p className="muted small">On a Mac, Ctrl is ⌘.</p>
      <table className="shortcut-table">
        <caption className="visually-hidden">Keyboard shortcuts of the canvas</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.action}>
              <td>
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? " or " : ""}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>{shortcut.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ModalDialog>
  );
}
