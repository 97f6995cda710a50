"use client";

import { useEffect } from "react";
import { useCanvas, useNoticeStore } from "./canvas-context";

const selectNotice = (state: { notice: { id: number; tone: string; message: string } | null }) => state.notice;

/**
 * The canvas's status line (role="status", polite): why a connection was
 * refused, what was pasted, what a restore did. Errors stay until the next
 * message or a dismissal; the rest fade after a while.
 */
export function NoticeRegion() {
  const { stores } = useCanvas();
  const notice = useNoticeStore(selectNotice);
  useEffect(() => {
    if (!notice || notice.tone === "error" || notice.tone === "warning") return;
    const timer = setTimeout(() => {
      if (stores.notices.getState().notice?.id === notice.id) stores.notices.getState().dismiss();
    }, 8000);
    return () => clearTimeout(timer);
  }, [notice, stores]);
  return (
    <div className={`notice-region${notice ? ` notice-${notice.tone}` : ""}`} role="status" aria-live="polite" aria-label="Canvas messages">
      {notice ? (
        <>
          <span className="notice-message">{notice.message}</span>
          <button type="button" className="button-quiet icon-button" aria-label="Dismiss message" onClick={() => stores.notices.getState().dismiss()}>
            <span aria-hidden="true">×</span>
          </button>
        </>
      ) : null}
    </div>
  );
}
