"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/components/servers/action-types";

/** A token as the tokens page lists it: never the token itself. */
export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  ownerEmail: string;
  ownerRole: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface TokenActions {
  create(name: string): Promise<ActionResult<{ token: string; id: string }>>;
  revoke(id: string): Promise<ActionResult>;
}

/** Create a token (shown once, here), list tokens, revoke them. */
export function TokenList({ tokens, actions, showOwner }: { tokens: TokenView[]; actions: TokenActions; showOwner: boolean }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, startTransition] = useTransition();
  const create = (event: React.FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      const result = await actions.create(name);
      if (!result.ok) return setError({ message: result.error, field: result.field });
      setError(null);
      setCreated({ name: name.trim(), token: result.token });
      setName("");
      router.refresh();
    });
  };
  const revoke = (id: string) =>
    startTransition(async () => {
      const result = await actions.revoke(id);
      setError(result.ok ? null : { message: result.error });
      router.refresh();
    });
  return (
    <>
      <form className="card" aria-label="Create a token" onSubmit={create}>
        <div className="form-field">
          <label htmlFor="token-name">Token name</label>
          <input id="token-name" value={name} onChange={(event) => setName(event.target.value)} aria-invalid={error?.field === "name" ? true : undefined} aria-describedby="token-name-hint" />
          <p id="token-name-hint" className="field-hint">
            Name it after the host that will use it. It acts with your role.
          </p>
        </div>
        <button type="submit" className="button" disabled={busy}>
          Create token
        </button>
      </form>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {created ? (
        <section className="card" aria-label="New token" role="status">
          <p>
            <strong>{created.name}</strong>: copy it now; it is not shown again.
          </p>
          <code data-testid="new-token" className="code-input">
            {created.token}
          </code>
          <p className="small muted">Send it as the header <code>Authorization: Bearer &lt;token&gt;</code>.</p>
        </section>
      ) : null}
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="parameter-table" aria-label="Tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                {showOwner ? <th scope="col">Person</th> : null}
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">State</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  {showOwner ? (
                    <td>
                      {token.ownerEmail} <span className="muted small">({token.ownerRole})</span>
                    </td>
                  ) : null}
                  <td>
                    <code>{token.prefix}…</code>
                  </td>
                  <td className="small">{token.createdAt.slice(0, 16).replace("T", " ")}</td>
                  <td className="small">{token.lastUsedAt ? token.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
                  <td>
                    {token.revokedAt ? (
                      <span className="badge badge-offline">revoked</span>
                    ) : (
                      <button type="button" className="button-quiet button-danger" disabled={busy} onClick={() => revoke(token.id)} aria-label={`Revoke ${token.name}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
