"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useId, useRef, useState, useTransition } from "react";
import type { GraphProblem } from "@/lib/graph";
import type { ApprovalLooseningItem, WorkflowListActions } from "./action-types";
import { ApprovalLooseningNotice, looseningKey } from "./approval-loosening-notice";
import { OriginChangeNotice } from "./origin-change-notice";
import { noticeEntries, type OriginNoticeEntry, withoutApproved } from "./origin-notices";

type ImportOutcome = { kind: "imported"; id: string; name: string; origins: OriginNoticeEntry[]; changed: number; loosenings: ApprovalLooseningItem[] } | { kind: "refused"; error: string; problems: GraphProblem[] } | null;

/** Create a workflow by name, or import one from a JSON file. */
export function WorkflowListToolbar({ actions }: { actions: WorkflowListActions }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [createError, setCreateError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome>(null);
  const [pending, startTransition] = useTransition();
  const fileInput = useRef<HTMLInputElement>(null);
  const nameId = useId();
  const createErrorId = useId();
  const fileId = useId();

  function create(event: FormEvent) {
    event.preventDefault();
    startTransition(async () => {
      const result = await actions.create(name.trim() || "Untitled workflow");
      if (!result.ok) return setCreateError(result.error);
      setCreateError(null);
      router.push(`/workflows/${encodeURIComponent(result.id)}`);
    });
  }

  function importFile(file: File | undefined) {
    if (!file) return;
    startTransition(async () => {
      const text = await file.text();
      const result = await actions.importJson(text);
      if (fileInput.current) fileInput.current.value = "";
      if (result.ok) {
        const origins = noticeEntries(result.originChanges);
        return setOutcome({ kind: "imported", id: result.id, name: result.name, origins, changed: origins.length, loosenings: result.approvalLoosenings ?? [] });
      }
      setOutcome({ kind: "refused", error: result.error, problems: "problems" in result ? result.problems : [] });
    });
  }

  return (
    <>
      <section className="workflow-toolbar card" aria-label="New workflow">
        <form className="toolbar-form" onSubmit={create}>
          <label htmlFor={nameId}>New workflow name</label>
          <input
            id={nameId}
            name="name"
            value={name}
            placeholder="Untitled workflow"
            maxLength={120}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? createErrorId : undefined}
          />
          <button type="submit" className="button" disabled={pending}>
            Create workflow
          </button>
          {createError ? (
            <p id={createErrorId} className="field-error" role="alert">
              {createError}
            </p>
          ) : null}
        </form>
        <div className="toolbar-form">
          <label htmlFor={fileId}>Import workflow JSON</label>
          <input ref={fileInput} id={fileId} type="file" accept=".json,application/json" disabled={pending} onChange={(event) => importFile(event.target.files?.[0])} />
        </div>
        <div role="status" aria-live="polite" className="toolbar-status">
          {outcome?.kind === "imported" ? (
            <p className="notice-ok">
              Imported “{outcome.name}” as a new workflow.
              {outcome.changed
                ? ` It sends a credential to ${outcome.changed === 1 ? "an origin" : `${outcome.changed} origins`} no one approved for it; runs refuse until an owner approves (below).`
                : ""}
              {outcome.loosenings.length
                ? ` Its approval policy would loosen ${outcome.loosenings.length === 1 ? "a server's default" : `${outcome.loosenings.length} server defaults`}; runs keep the server's default until an owner approves (below).`
                : ""}{" "}
              <Link href={`/workflows/${encodeURIComponent(outcome.id)}`}>Open {outcome.name}</Link>
            </p>
          ) : null}
        </div>
        {outcome?.kind === "refused" ? (
          <div className="notice notice-error import-problems" role="alert">
            <p className="notice-title">{outcome.error}</p>
            {outcome.problems.length > 0 ? (
              <ul aria-label="Import problems" className="problem-list">
                {outcome.problems.map((problem, index) => (
                  <li key={`${problem.code}-${index}`} className={`problem problem-${problem.severity}`}>
                    <span className="problem-severity">{problem.severity}</span> <code className="problem-rule">{problem.code}</code>{" "}
                    <span className="problem-message">{problem.message}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </section>
      {outcome?.kind === "imported" && outcome.changed ? (
        <OriginChangeNotice
          workflowId={outcome.id}
          entries={outcome.origins}
          approve={actions.approveOrigin}
          title={`“${outcome.name}” sends a credential to a new origin`}
          onApproved={(entry) => setOutcome((current) => (current?.kind === "imported" ? { ...current, origins: withoutApproved(current.origins, entry.nodeType, entry.credential, entry.origin) } : current))}
        />
      ) : null}
      {outcome?.kind === "imported" ? (
        <ApprovalLooseningNotice
          workflowId={outcome.id}
          entries={outcome.loosenings}
          approve={actions.approveLoosening}
          title={`“${outcome.name}” would loosen a server's approval default`}
          onApproved={(entry) => setOutcome((current) => (current?.kind === "imported" ? { ...current, loosenings: current.loosenings.filter((item) => looseningKey(item) !== looseningKey(entry)) } : current))}
        />
      ) : null}
    </>
  );
}
