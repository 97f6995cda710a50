"use client";

import "@/components/ui/controls.css";
import "./workflows.css";
import { EmptyState } from "@/components/ui/empty-state";
import type { WorkflowListActions } from "./action-types";
import { WorkflowCard, type WorkflowListItem } from "./workflow-card";
import { WorkflowListToolbar } from "./workflow-list-toolbar";

/** The workflows, each linking to its canvas, with create, import, rename, duplicate, export and delete (`actions` null: read and export only). */
export function WorkflowList({ workflows, actions }: { workflows: WorkflowListItem[]; actions: WorkflowListActions | null }) {
  return (
    <>
      {actions ? <WorkflowListToolbar actions={actions} /> : null}
      {workflows.length === 0 ? (
        <EmptyState title="No workflows yet">
          <p>{actions ? "Create one above, or import a workflow JSON file." : "An editor or owner creates them."}</p>
        </EmptyState>
      ) : (
        <ul className="workflow-list" aria-label="Workflows">
          {workflows.map((workflow) => (
            <WorkflowCard key={workflow.id} workflow={workflow} actions={actions} />
          ))}
        </ul>
      )}
    </>
  );
}
