"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ServerActions } from "./action-types";
import styles from "./servers.module.css";

/**
 * Connect / Reconnect / Disconnect of an OAuth server. Connect asks the app
 * for the provider's consent page and goes there; the provider sends the
 * person back to the app's callback, which lands on /servers again.
 */
export function OAuthConnect({
  id,
  name,
  status,
  actions,
}: {
  id: string;
  name: string;
  status: "connected" | "reconnect" | "not-connected";
  actions: Pick<ServerActions, "connect" | "disconnect">;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [problem, setProblem] = useState<string | null>(null);
  const label = status === "connected" ? "Connect again" : status === "reconnect" ? "Reconnect" : "Connect";

  function connect() {
    setProblem(null);
    start(async () => {
      const result = await actions.connect(id);
      if (!result.ok) return setProblem(result.error);
      if (result.authorizationUrl) window.location.assign(result.authorizationUrl);
      else router.refresh();
    });
  }

  function disconnect() {
    setProblem(null);
    start(async () => {
      const result = await actions.disconnect(id);
      if (!result.ok) setProblem(result.error);
      router.refresh();
    });
  }

  return (
    <div className={styles.cardActions}>
      <div className={styles.buttonRow}>
        <button type="button" className="button" onClick={connect} disabled={pending} aria-label={`${label} ${name}`}>
          {pending ? "Opening the provider…" : label}
        </button>
        {status === "not-connected" ? null : (
          <button type="button" className={styles.secondaryButton} onClick={disconnect} disabled={pending} aria-label={`Disconnect ${name}`}>
            Disconnect
          </button>
        )}
      </div>
      {problem ? (
        <p role="alert" aria-label={`OAuth problem of ${name}`} className={styles.resultError}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}
