import type { ReactNode } from "react";

/** A failure the person can act on, announced to screen readers as an alert. */
export function ErrorNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{title}</p>
      <p>{children}</p>
    </div>
  );
}
