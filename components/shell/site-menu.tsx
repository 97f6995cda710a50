"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useState } from "react";

/**
 * The header's sections and the person, behind a "Menu" button below 768 px
 * (globals.css); wider, the button is hidden and the panel lays out inline.
 * Following a link closes it, so the next page starts with the menu shut.
 */
export function SiteMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const pathname = usePathname();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        className="button-quiet site-menu-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
      >
        <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
          <path d={open ? "M5 5l10 10M15 5L5 15" : "M3 5h14M3 10h14M3 15h14"} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span>Menu</span>
      </button>
      <div id={panelId} className={`site-menu-panel${open ? " is-open" : ""}`}>
        {children}
      </div>
    </>
  );
}
