import { InlineCode } from "@/components/ui/inline-code";
import { ConnectorList } from "./connector-list";
import { MethodList } from "./method-list";
import { PortList } from "./port-list";
import { countProblems, plural, ProblemList } from "./problem-list";
import { type CatalogueNode, nodeSource } from "@/lib/manifest/browser";

export function nodeAnchor(name: string): string {
  return `node-${name}`;
}

/** What people see of a node type: identity, ports, connectors, tools and lint findings. */
export function NodeCard({ node }: { node: CatalogueNode }) {
  const anchor = nodeAnchor(node.name);
  const manifest = node.manifest;
  const face = manifest?.interface;
  return (
    <article className={`card node-card${manifest ? "" : " node-card-broken"}`} id={anchor} aria-labelledby={`${anchor}-title`}>
      <header className="node-card-header">
        <div className="node-card-identity">
          <h2 id={`${anchor}-title`}>{face?.title ?? node.name}</h2>
          <p className="node-name">
            <code>{node.name}</code>
            {face ? <span className="muted"> · {face.category}</span> : null}
          </p>
        </div>
        <NodeBadges node={node} />
      </header>

      {face ? (
        <>
          <p className="node-description">
            <InlineCode text={face.description} />
          </p>
          <NodeSource node={node} />
          {face.whenToUse ? (
            <p className="when-to-use">
              <strong>When to use:</strong> <InlineCode text={face.whenToUse} />
            </p>
          ) : null}
          {face.credentials.length > 0 ? (
            <p className="small">
              <strong>Credentials:</strong>{" "}
              {face.credentials.map((credential) => `${credential.displayName}${credential.required ? "" : " (optional)"}`).join(", ")}
            </p>
          ) : null}
          {face.inputs.length + face.outputs.length > 0 ? (
            <div className="node-section port-groups">
              <PortList title="Inputs" ports={face.inputs} emptyText="None: runs only when called." />
              <PortList title="Outputs" ports={face.outputs} emptyText="None." />
            </div>
          ) : null}
          {face.serviceConnectors.length > 0 ? <ConnectorList nodeName={node.name} connectors={face.serviceConnectors} methods={Object.keys(manifest.service ?? {})} /> : null}
          {manifest.service ? <MethodList nodeName={node.name} service={manifest.service} /> : null}
        </>
      ) : (
        <p className="node-description">
          This node cannot be used: its <code>interface.yaml</code> is missing or broken. The problems below say what to fix.
        </p>
      )}

      {node.problems.length > 0 ? (
        <div className="node-section">
          <h3>Lint problems</h3>
          <ProblemList problems={node.problems} label={`Lint problems of ${node.name}`} />
        </div>
      ) : null}
    </article>
  );
}

function NodeBadges({ node }: { node: CatalogueNode }) {
  const { errors, warnings } = countProblems(node.problems);
  const manifest = node.manifest;
  return (
    <ul className="badges" aria-label="Summary">
      {manifest ? (
        <li
          className={`badge badge-kind badge-${manifest.interface.kind === "CallbackNode" ? "callback" : "promise"}`}
          title={manifest.interface.kind === "CallbackNode" ? "Multi-turn: calls back until it is done" : "Single pass"}
        >
          {manifest.interface.kind}
        </li>
      ) : (
        <li className="badge badge-error">Not usable</li>
      )}
      {manifest?.toolExchange?.adapter === "offline" ? (
        <li className="badge badge-offline" title="The built-in deterministic model: no network, no API key">
          offline
        </li>
      ) : null}
      {errors > 0 ? <li className="badge badge-error">{plural(errors, "error")}</li> : null}
      {warnings > 0 ? <li className="badge badge-warning">{plural(warnings, "warning")}</li> : null}
      {errors + warnings === 0 ? <li className="badge badge-ok">lint clean</li> : null}
    </ul>
  );
}

/** First-party or imported, with what the importer changed. */
function NodeSource({ node }: { node: CatalogueNode }) {
  const source = nodeSource(node);
  return (
    <div className="small node-source">
      <strong>Source:</strong> {source.label}
      {source.notes.length > 0 ? (
        <details>
          <summary>Import notes ({source.notes.length})</summary>
          <ul>
            {source.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
