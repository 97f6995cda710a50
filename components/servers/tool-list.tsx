"use client";

import { useCallback, useEffect, useState, useTransition } from "react";
import type { ServerActions, ToolItem } from "./action-types";
import styles from "./servers.module.css";

type Loaded = { ok: true; tools: ToolItem[] } | { ok: false; error: string } | null;

/** A server's tools with their input schemas, fetched by connecting to it (on open, and again on demand). */
export function ToolList({ serverId, serverName, listTools }: { serverId: string; serverName: string; listTools: ServerActions["tools"] }) {
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [pending, startTransition] = useTransition();

  const load = useCallback(() => {
    startTransition(async () => {
      const result = await listTools(serverId);
      setLoaded(result.ok ? { ok: true, tools: result.tools } : { ok: false, error: result.error });
    });
  }, [listTools, serverId]);

  useEffect(load, [load]);

  return (
    <section className={styles.tools} aria-labelledby="tools-heading">
      <div className={styles.toolsHeader}>
        <h2 id="tools-heading">Tools</h2>
        <button type="button" className={styles.secondaryButton} onClick={load} disabled={pending} aria-label={`Reload the tools of ${serverName}`}>
          {pending ? "Connecting…" : "Reload"}
        </button>
      </div>
      <p role="status" className={loaded && !loaded.ok ? styles.resultError : styles.hint}>
        {pending ? `Connecting to ${serverName} and listing its tools…` : loaded?.ok ? `${loaded.tools.length} tool${loaded.tools.length === 1 ? "" : "s"}.` : loaded ? loaded.error : ""}
      </p>
      {loaded?.ok ? (
        <ul className={styles.toolList} aria-label={`Tools of ${serverName}`}>
          {loaded.tools.map((tool) => (
            <li key={tool.name}>
              <article className={`card ${styles.tool}`} aria-labelledby={`tool-${tool.name}`}>
                <h3 id={`tool-${tool.name}`} className={styles.toolName}>
                  <code>{tool.name}</code>
                  {tool.title ? <span className="muted"> — {tool.title}</span> : null}
                  {tool.taskSupport === "required" ? <span className="badge badge-callback">task</span> : null}
                </h3>
                {tool.description ? <p className={styles.toolDescription}>{tool.description}</p> : null}
                {tool.problem ? <p className={styles.resultError}>Cannot be offered to agents: {tool.problem}</p> : null}
                <details className={styles.schema}>
                  <summary>Input schema of {tool.name}</summary>
                  <pre>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
                </details>
              </article>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
