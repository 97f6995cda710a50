"use client";

import "./controls.css";
import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal dialog on the native <dialog>: focus moves in (to its first field,
 * or its first control after the close button, so typing and Enter act on
 * the form) and back, Escape closes it, the page behind is inert. Open it by
 * rendering it with `open`; it tells its owner when it closes, however that
 * happened.
 */
export function ModalDialog({
  open,
  title,
  onClose,
  children,
  className,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      const body = dialog.querySelector(".modal-dialog-body");
      const first =
        body?.querySelector<HTMLElement>("[autofocus], input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)") ??
        body?.querySelector<HTMLElement>("button:not(:disabled), a[href], [tabindex]:not([tabindex='-1'])");
      first?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`modal-dialog${wide ? " modal-dialog-wide" : ""}${className ? ` ${className}` : ""}`}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <div className="modal-dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="button-quiet icon-button" aria-label="Close" onClick={onClose}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div className="modal-dialog-body">{children}</div>
        </>
      ) : null}
    </dialog>
  );
}
