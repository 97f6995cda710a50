"use client";

import { ToolCallPart } from "@/components/chat/tool-call-part";
import { useRunStream } from "./use-run-stream";
import "@/components/chat/chat.css";
import styles from "./run.module.css";

/**
 * The run page's live part while the run runs: each agent's text as its
 * model writes it (token by token; the offline model word by word) and tool
 * calls as they start and end, from GET /api/runs/<id>/stream. When the run
 * ends the page drops it: the trace below is the record.
 */
export function LiveRunText({ runId }: { runId: string }) {
  const { parts, following, error } = useRunStream(runId);
  return (
    <section className={`card ${styles.liveCard}`} aria-labelledby="live-heading">
      <h2 id="live-heading">Live output</h2>
      {parts.length === 0 ? <p className={styles.liveEmpty}>{following ? "No agent has written yet." : "Nothing was written."}</p> : null}
      <ol className={styles.liveParts} aria-live="polite" aria-label="Agents' text and tool calls as the run writes them">
        {parts.map((part) =>
          part.kind === "text" ? (
            <li key={part.key} className={styles.liveText} data-node={part.nodeId} data-writing={part.writing}>
              <span className={styles.liveNode}>{part.nodeId}</span>
              <p>{part.text}</p>
            </li>
          ) : (
            <li key={part.key}>
              <ToolCallPart part={part.part} />
            </li>
          ),
        )}
      </ol>
      {error ? (
        <p className={styles.pollError} role="alert">
          The live text stopped: {error.message}. The trace below goes on.
        </p>
      ) : null}
    </section>
  );
}
