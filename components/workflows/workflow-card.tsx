"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState, useTransition } from "react";
import { DateTime } from "@/components/ui/date-time";
import { ModalDialog } from "@/components/ui/modal-dialog";
import type { WorkflowListActions } from "./action-types";

/** A workflow as the list shows it. */
export interface WorkflowListItem {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
}

/** One workflow in the list: its link, and rename, duplicate, export and delete. */
/** `actions` null: the person may read, not change (a viewer or runner): only Export is offered. */
export function WorkflowCard({ workflow, actions }: { workflow: WorkflowListItem; actions: WorkflowListActions | null }) {
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(workflow.name);
  const [error, setError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [pending, startTransition] = useTransition();
  const nameId = useId();
  const errorId = useId();
  const href = `/workflows/${encodeURIComponent(workflow.id)}`;

  function rename(event: FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      const result = await actions!.rename(workflow.id, name);
      if (!result.ok) return setError(result.error);
      setError(null);
      setRenaming(false);
      router.refresh();
    });
  }

  function duplicate() {
    startTransition(async () => {
      const result = await actions!.duplicate(workflow.id);
      setError(result.ok ? null : result.error);
      router.refresh();
    });
  }

  function remove() {
    startTransition(async () => {
      const result = await actions!.remove(workflow.id);
      setConfirmingDelete(false);
      setError(result.ok ? null : result.error);
      router.refresh();
    });
  }

  return (
    <li className="card workflow-card" aria-label={workflow.name}>
      {renaming ? (
        <form className="rename-form" onSubmit={rename}>
          <label htmlFor={nameId}>New name for {workflow.name}</label>
          <input
            id={nameId}
            value={name}
            maxLength={120}
            autoFocus
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          <div className="button-row">
            <button type="submit" className="button" disabled={pending}>
              Save name
            </button>
            <button
              type="button"
              className="button-quiet"
              onClick={() => {
                setRenaming(false);
                setName(workflow.name);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <h2 className="workflow-name">
          <Link href={href}>{workflow.name}</Link>
        </h2>
      )}
      {workflow.description ? <p className="workflow-description">{workflow.description}</p> : null}
      <p className="muted small">
        Last updated <DateTime value={workflow.updatedAt} />
      </p>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row workflow-actions">
        {actions ? (
          <>
            <button type="button" className="button-quiet" aria-label={`Rename ${workflow.name}`} disabled={pending || renaming} onClick={() => setRenaming(true)}>
              Rename
            </button>
            <button type="button" className="button-quiet" aria-label={`Duplicate ${workflow.name}`} disabled={pending} onClick={duplicate}>
              Duplicate
            </button>
          </>
        ) : null}
        <a className="button-quiet" href={`${href}/export`} download aria-label={`Export ${workflow.name} as JSON`}>
          Export
        </a>
        {actions ? (
          <button type="button" className="button-quiet button-danger" aria-label={`Delete ${workflow.name}`} disabled={pending} onClick={() => setConfirmingDelete(true)}>
            Delete
          </button>
        ) : null}
      </div>
      <ModalDialog open={confirmingDelete} title={`Delete “${workflow.name}”?`} onClose={() => setConfirmingDelete(false)}>
        <p>The workflow and its saved versions are deleted. Its past runs are kept, no longer linked to it. This cannot be undone.</p>
        <div className="button-row dialog-actions">
          <button type="button" className="button-quiet" onClick={() => setConfirmingDelete(false)}>
            Cancel
          </button>
          <button type="button" className="button button-danger-solid" disabled={pending} onClick={remove}>
            Delete workflow
          </button>
        </div>
      </ModalDialog>
    </li>
  );
}
