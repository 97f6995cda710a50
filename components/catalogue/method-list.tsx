import { InlineCode } from "@/components/ui/inline-code";
import { methodAnchor } from "./connector-list";
import { ParameterTable } from "./parameter-table";
import type { ServiceManifest, ServiceMethod } from "@/lib/manifest/browser";

const hintLabels: Record<string, string> = {
  readOnlyHint: "read-only",
  destructiveHint: "destructive",
  idempotentHint: "idempotent",
  openWorldHint: "reaches outside systems",
};

/** The methods of api/service.yaml: what the model reads and the parameters it must send. */
export function MethodList({ nodeName, service }: { nodeName: string; service: ServiceManifest }) {
  const methods = Object.entries(service);
  return (
    <div className="node-section">
      <h3>Methods offered as tools</h3>
      {methods.length === 0 ? <p className="muted small">api/service.yaml declares no method.</p> : null}
      {methods.map(([name, method]) => (
        <Method key={name} nodeName={nodeName} name={name} method={method} />
      ))}
    </div>
  );
}

function Method({ nodeName, name, method }: { nodeName: string; name: string; method: ServiceMethod }) {
  const hints = Object.entries(method.annotations ?? {})
    .filter(([, value]) => value === true)
    .map(([key]) => hintLabels[key] ?? key);
  const calls = method.calls.length;
  return (
    <div className="method" id={methodAnchor(nodeName, name)}>
      <div className="method-heading">
        <h4>
          <code>{name}</code>
        </h4>
        <span className="muted small">{calls === 0 ? "computed, no HTTP call" : `${calls} HTTP call${calls === 1 ? "" : "s"}`}</span>
        {hints.map((hint) => (
          <span key={hint} className="chip">
            {hint}
          </span>
        ))}
      </div>
      <p className="method-description">
        <InlineCode text={method.description} />
      </p>
      <ParameterTable caption={`Parameters of ${name}`} schema={method.inputs} emptyText="Takes no parameters." />
      {method.outputSchema ? (
        <details className="result-fields">
          <summary>Result fields</summary>
          <ParameterTable caption={`Result of ${name}`} schema={method.outputSchema} emptyText="No fields declared." />
        </details>
      ) : null}
    </div>
  );
}
