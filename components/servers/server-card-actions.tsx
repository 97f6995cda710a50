"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import type { ServerActions } from "./action-types";
import styles from "./servers.module.css";

type Outcome = { ok: boolean; text: string } | null;

/** Test connection, tools, edit and delete (with a confirmation) for one server card. */
export function ServerCardActions({ id, name, actions, editable }: { id: string; name: string; actions: Pick<ServerActions, "remove" | "test">; editable: boolean }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [testing, startTest] = useTransition();
  const [deleting, startDelete] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const href = `/servers/${encodeURIComponent(id)}`;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  function test() {
    setOutcome(null);
    startTest(async () => {
      const result = await actions.test(id);
      setOutcome(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
    });
  }

  function remove() {
    startDelete(async () => {
      const result = await actions.remove(id);
      setConfirming(false);
      if (!result.ok) setOutcome({ ok: false, text: result.error });
      router.refresh();
    });
  }

  return (
    <div className={styles.cardActions}>
      <div className={styles.buttonRow}>
        {editable ? (
          <>
            <button type="button" className="button" onClick={test} disabled={testing} aria-label={`Test connection to ${name}`}>
              {testing ? "Testing…" : "Test connection"}
            </button>
            <Link className={styles.secondaryButton} href={href} aria-label={`Tools of ${name}`}>
              Tools
            </Link>
            <Link className={styles.secondaryButton} href={`${href}/edit`} aria-label={`Edit ${name}`}>
              Edit
            </Link>
          </>
        ) : null}
        {confirming ? null : (
          <button type="button" className={styles.dangerButton} onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
            Delete
          </button>
        )}
      </div>
      {confirming ? (
        <div role="group" aria-label={`Confirm deleting ${name}`} className={styles.confirm}>
          <p>
            Delete <strong>{name}</strong> and its stored secrets? Workflows that use it will fail to find it.
          </p>
          <div className={styles.buttonRow}>
            <button ref={confirmRef} type="button" className={styles.dangerButtonSolid} onClick={remove} disabled={deleting}>
              {deleting ? "Deleting…" : "Yes, delete"}
            </button>
            <button type="button" className={styles.secondaryButton} onClick={() => setConfirming(false)} disabled={deleting}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <p role="status" aria-label={`Connection result of ${name}`} className={outcome ? (outcome.ok ? styles.resultOk : styles.resultError) : styles.resultEmpty}>
        {testing ? "Connecting and listing the tools…" : (outcome?.text ?? "")}
      </p>
    </div>
  );
}
