import { InlineCode } from "@/components/ui/inline-code";
import type { ServiceConnector } from "@/lib/manifest/browser";

/**
 * A node's MCP connectors. A connector that offers tools and one that
 * consumes them are drawn differently (solid plug out / dashed socket in),
 * as they are on the canvas.
 */
export function ConnectorList({
  nodeName,
  connectors,
  methods,
}: {
  nodeName: string;
  connectors: ServiceConnector[];
  /** The methods api/service.yaml defines: only those are linked. */
  methods: string[];
}) {
  return (
    <div className="node-section">
      <h3>Service connectors</h3>
      <ul className="connector-list" aria-label="Service connectors">
        {connectors.map((connector) => (
          <li key={connector.name} className={`connector ${connector.isService ? "connector-offers" : "connector-consumes"}`}>
            <p className="connector-role">
              <ConnectorIcon offers={connector.isService} />
              <span>{connector.isService ? "Offers tools" : "Consumes tools"}</span>
              <code>{connector.name}</code>
              <span className="muted small">{connector.serviceType.toUpperCase()}</span>
            </p>
            {connector.description ? (
              <p className="small">
                <InlineCode text={connector.description} />
              </p>
            ) : null}
            {connector.isService ? (
              <p className="small">
                <span className="muted">Tools: </span>
                {connector.methods.length === 0
                  ? "none listed"
                  : connector.methods.map((method, index) => (
                      <span key={method}>
                        {methods.includes(method) ? (
                          <a href={`#${methodAnchor(nodeName, method)}`}>
                            <code>{method}</code>
                          </a>
                        ) : (
                          <code>{method}</code>
                        )}
                        {index < connector.methods.length - 1 ? ", " : null}
                      </span>
                    ))}
              </p>
            ) : (
              <p className="small muted">Gets the tools of whatever is wired here; with nothing wired the agent answers in one pass.</p>
            )}
            {connector.instructions ? (
              <details className="instructions">
                <summary>Instructions for the agent</summary>
                <pre>{connector.instructions}</pre>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function methodAnchor(nodeName: string, method: string): string {
  return `node-${nodeName}-method-${method}`;
}

function ConnectorIcon({ offers }: { offers: boolean }) {
  return (
    <svg className="connector-icon" viewBox="0 0 24 16" width="24" height="16" aria-hidden="true" focusable="false">
      {offers ? (
        <>
          <circle cx="6" cy="8" r="5" fill="currentColor" />
          <path d="M11 8h10m-4-4 4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </>
      ) : (
        <>
          <circle cx="18" cy="8" r="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M2 8h9m-4-4 4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" strokeDasharray="3 2" />
        </>
      )}
    </svg>
  );
}
