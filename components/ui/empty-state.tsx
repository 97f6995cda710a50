import type { ReactNode } from "react";

/** What a list shows when it has nothing in it: what would be here, and how to get some. */
export function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      <div className="empty-state-body">{children}</div>
    </div>
  );
}
