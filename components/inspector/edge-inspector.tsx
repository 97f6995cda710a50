import type { CanvasProblem } from "@/lib/canvas";
import type { WorkflowEdge } from "@/lib/graph";
import { ProblemItems } from "./problem-items";

const kindText: Record<WorkflowEdge["kind"], string> = {
  signal: "Signal edge: carries the output's value to the input and triggers the target node.",
  service: "Service edge: the provider's methods become the agent's tools.",
  task: "Task edge: the Task Start's sub-flow becomes one tool of the agent.",
};

/** The inspector of one edge: what it joins, what it does, its problems. */
export function EdgeInspector({ edge, problems, onDelete }: { edge: WorkflowEdge; problems: readonly CanvasProblem[]; onDelete: () => void }) {
  return (
    <section className="inspector" aria-labelledby="edge-inspector-heading">
      <header className="inspector-header">
        <h2 id="edge-inspector-heading">{edge.kind.charAt(0).toUpperCase() + edge.kind.slice(1)} edge</h2>
        <p className="muted small">
          <code>
            {edge.source}.{edge.sourceHandle}
          </code>{" "}
          →{" "}
          <code>
            {edge.target}.{edge.targetHandle}
          </code>
        </p>
        <p className="small">{kindText[edge.kind]}</p>
      </header>
      <section className="inspector-problems" aria-label={`Problems of edge ${edge.id}`}>
        <h3>Problems</h3>
        {problems.length === 0 ? <p className="muted small">None.</p> : <ProblemItems problems={problems} label={`Problems of edge ${edge.id}`} />}
      </section>
      <button type="button" className="button-quiet button-danger" onClick={onDelete}>
        Delete edge
      </button>
    </section>
  );
}
