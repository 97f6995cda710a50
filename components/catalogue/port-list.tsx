import { InlineCode } from "@/components/ui/inline-code";
import type { Port } from "@/lib/manifest/browser";

/** A node's signal inputs or outputs. */
export function PortList({ title, ports, emptyText }: { title: string; ports: Port[]; emptyText: string }) {
  return (
    <div className="port-group">
      <h3>{title}</h3>
      {ports.length === 0 ? (
        <p className="muted small">{emptyText}</p>
      ) : (
        <ul className="port-list" aria-label={title}>
          {ports.map((port) => (
            <li key={port.name}>
              <code className="port-name">{port.name}</code> <code className="type">{port.type}</code>
              {port.required ? <span className="required"> required</span> : null}
              {port.description ? (
                <p className="small">
                  <InlineCode text={port.description} />
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
