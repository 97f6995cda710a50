import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";

export interface WorkflowListItem {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
}

/** The workflows, each linking to its canvas. */
export function WorkflowList({ workflows }: { workflows: WorkflowListItem[] }) {
  if (workflows.length === 0) {
    return (
      <EmptyState title="No workflows yet">
        <p>
          Workflows you create appear here. A fresh database gets a demo workflow when the app is prepared: run{" "}
          <code>npm start</code>.
        </p>
      </EmptyState>
    );
  }
  return (
    <ul className="workflow-list" aria-label="Workflows">
      {workflows.map((workflow) => (
        <li key={workflow.id} className="card workflow-card">
          <h2 className="workflow-name">
            <Link href={`/workflows/${encodeURIComponent(workflow.id)}`}>{workflow.name}</Link>
          </h2>
          {workflow.description ? <p className="workflow-description">{workflow.description}</p> : null}
          <p className="muted small">
            Last updated <DateTime value={workflow.updatedAt} />
          </p>
        </li>
      ))}
    </ul>
  );
}
