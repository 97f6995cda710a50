import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import type { ServerActions } from "./action-types";
import { ServerCardActions } from "./server-card-actions";
import { OAuthConnect } from "./oauth-connect";
import type { ServerView } from "./server-view";
import styles from "./servers.module.css";

const transportLabels = { stdio: "stdio (local process)", http: "Streamable HTTP", sse: "SSE" } as const;
const secretLabels = { set: "set", missing: "not set", unreadable: "cannot be read" } as const;

/** Every registered server; refused ones with their error, so they can be fixed or deleted. */
/** `actions` null below owner: the servers are listed, not changed or connected to. */
export function ServerList({ servers, actions }: { servers: ServerView[]; actions: CardActions | null }) {
  if (servers.length === 0) {
    return (
      <EmptyState title="No MCP servers yet">
        <p>
          Register one to give agents its tools, or run <code>npm run servers -- add FILE.json</code>.
        </p>
      </EmptyState>
    );
  }
  return (
    <ul className={styles.serverList} aria-label="MCP servers">
      {servers.map((server) => (
        <li key={server.id}>{server.ok ? <ServerCard server={server} actions={actions} /> : <RefusedServerCard server={server} actions={actions} />}</li>
      ))}
    </ul>
  );
}

type CardActions = Pick<ServerActions, "remove" | "test" | "connect" | "disconnect">;

const oauthLabels = { connected: "connected", reconnect: "reconnect", "not-connected": "not connected" } as const;

function ServerCard({ server, actions }: { server: Extract<ServerView, { ok: true }>; actions: CardActions | null }) {
  return (
    <article className={`card ${styles.serverCard}`} aria-labelledby={`server-${server.id}-name`}>
      <header className={styles.cardHeader}>
        <div>
          <h2 id={`server-${server.id}-name`} className={styles.serverName}>
            <Link href={`/servers/${encodeURIComponent(server.id)}`}>{server.name}</Link>
          </h2>
          <p className="muted small">
            id <code>{server.id}</code>
          </p>
        </div>
        <ul className="badges" aria-label="Status">
          <li className="badge badge-promise">{transportLabels[server.transport]}</li>
          <li className={`badge ${server.enabled ? "badge-ok" : "badge-warning"}`}>{server.enabled ? "enabled" : "disabled"}</li>
          {server.oauth ? (
            <li className={`badge ${server.oauth.status === "connected" ? "badge-ok" : server.oauth.status === "reconnect" ? "badge-error" : "badge-warning"}`}>
              OAuth: {oauthLabels[server.oauth.status]}
            </li>
          ) : null}
        </ul>
      </header>
      {server.description ? <p>{server.description}</p> : null}
      <dl className={styles.facts}>
        <dt>{server.transport === "stdio" ? "Runs" : "URL"}</dt>
        <dd>
          <code className={styles.target}>{server.target}</code>
        </dd>
        {server.oauth ? (
          <>
            <dt>OAuth</dt>
            <dd>
              {server.oauth.grant === "client_credentials"
                ? "client credentials (machine to machine)"
                : server.oauth.status === "reconnect"
                  ? `Reconnect needed: ${server.oauth.reason ?? "the authorization can no longer be refreshed"}`
                  : server.oauth.status === "connected"
                    ? `connected${server.oauth.connectedBy ? ` by ${server.oauth.connectedBy}` : ""}`
                    : "not connected yet: press Connect to sign in at the provider"}
            </dd>
          </>
        ) : null}
        {server.allowedTools.length ? (
          <>
            <dt>Tools</dt>
            <dd>only {server.allowedTools.join(", ")}</dd>
          </>
        ) : null}
        <dt>Workflows</dt>
        <dd>only those granted it (each workflow's Grants panel)</dd>
        <dt>Limits</dt>
        <dd>
          connect timeout {server.timeoutMs} ms, {server.maxRetries} retr{server.maxRetries === 1 ? "y" : "ies"}
          {server.toolTimeoutMs !== null ? `, tool timeout ${server.toolTimeoutMs ? `${server.toolTimeoutMs} ms` : "off"}` : ""}
          {server.maxConcurrentCalls !== null ? `, at most ${server.maxConcurrentCalls} calls at once` : ""}
        </dd>
        {server.secrets.length ? (
          <>
            <dt>Secrets</dt>
            <dd>
              <ul className="chips" aria-label="Secrets">
                {server.secrets.map((secret) => (
                  <li key={secret.name} className={`chip ${secret.state === "set" ? "" : styles.chipWarning}`}>
                    {secret.name}: {secretLabels[secret.state]}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {actions && server.oauth?.grant === "authorization_code" ? <OAuthConnect id={server.id} name={server.name} status={server.oauth.status} actions={actions} /> : null}
      {actions ? <ServerCardActions id={server.id} name={server.name} actions={actions} editable /> : null}
    </article>
  );
}

function RefusedServerCard({ server, actions }: { server: Extract<ServerView, { ok: false }>; actions: CardActions | null }) {
  const name = server.name ?? server.id;
  return (
    <article className={`card ${styles.serverCard} ${styles.refusedCard}`} aria-labelledby={`server-${server.id}-name`}>
      <header className={styles.cardHeader}>
        <div>
          <h2 id={`server-${server.id}-name`} className={styles.serverName}>
            {name}
          </h2>
          <p className="muted small">
            id <code>{server.id}</code>
          </p>
        </div>
        <ul className="badges" aria-label="Status">
          <li className="badge badge-error">{server.catalogueLine ? "disabled: not in the stdio catalogue" : "refused"}</li>
        </ul>
      </header>
      <div className="notice notice-error">
        <p className="notice-title">This stored server is refused and will not be used</p>
        <p className={styles.refusal}>{server.error}</p>
        {server.catalogueLine ? (
          <>
            <p className="small">
              It is disabled and never starts. The administrator can allow exactly this command line by adding this entry to the <code>servers</code> of the stdio catalogue:
            </p>
            <pre className={styles.refusal} aria-label={`Catalogue entry that would allow ${name}`}>
              <code>{server.catalogueLine}</code>
            </pre>
          </>
        ) : null}
        <p className="small">Register it again with the same id to replace it, or delete it.</p>
      </div>
      {actions ? <ServerCardActions id={server.id} name={name} actions={actions} editable={false} /> : null}
    </article>
  );
}
